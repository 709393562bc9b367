//! Bishop and pawn against bishop (KBPKB): the draws the network rates as wins.
//!
//! The rule names positions that are drawn whichever side the evaluation favours. It was
//! checked against Bastion's own DTM table of the ending on random quiet positions (the
//! `endgame_check` example; figures in docs/engine.md): where it fires, the table says
//! draw in 99.9 % of them and the side without the pawn never wins. The same test found
//! no use for rules of the same kind in KRPKR and KNPKN (the defending king in front of
//! the pawn): the network already rates those draws near zero.

use super::masks::FORWARD_FILE;
use bastion_core::attacks::bishop_attacks;
use bastion_core::{Bitboard, Color, Position, Role, Square};

/// The scale (0) when the rule calls the position a draw, else `None`.
///
/// Bishops of opposite colours: the defending king in front of the pawn, or the defending
/// bishop on a diagonal through a square in front of it (the other bishop can never
/// contest that square). Bishops of one colour: the defending king in front of the pawn
/// on a square of the other colour, where the bishop cannot drive it away. Never when the
/// stronger king stands in a corner, where its own bishop and pawn can box it in for a mate.
pub(crate) fn scale(pos: &Position) -> Option<i32> {
    if pos.occupied().count() != 5 || pos.role_bb(Role::Bishop).count() != 2 || pos.role_bb(Role::Pawn).count() != 1 {
        return None;
    }
    let strong = Color::ALL.into_iter().find(|&c| pos.pieces(c, Role::Pawn).nonempty())?;
    let weak = !strong;
    let (ours, theirs) = (pos.pieces(strong, Role::Bishop), pos.pieces(weak, Role::Bishop));
    if ours.count() != 1 || theirs.count() != 1 {
        return None;
    }
    if matches!(pos.king(strong), Square::A1 | Square::H1 | Square::A8 | Square::H8) {
        return None;
    }
    let (ours, theirs, king) = (ours.lsb(), theirs.lsb(), pos.king(weak));
    let path = path(pos.pieces(strong, Role::Pawn).lsb(), strong);
    let drawn = if ours.is_light() != theirs.is_light() {
        path.contains(king) || (bishop_attacks(theirs, pos.occupied()) & path).nonempty()
    } else {
        path.contains(king) && king.is_light() != ours.is_light()
    };
    drawn.then_some(0)
}

/// The squares in front of a pawn of `color` on `pawn`.
fn path(pawn: Square, color: Color) -> Bitboard {
    Bitboard(FORWARD_FILE[color.index()][pawn.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fires(fen: &str) -> bool {
        scale(&Position::from_fen(fen).unwrap()).is_some()
    }

    /// The verdict is the same after a colour flip and after a file mirror.
    fn symmetric(fen: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let pieces: Vec<_> =
            pos.occupied().into_iter().map(|s| (s.flip_horizontal(), pos.piece_at(s).unwrap())).collect();
        let mirrored = Position::from_pieces(&pieces, pos.side_to_move()).unwrap();
        let v = scale(&pos);
        v == scale(&pos.mirrored()) && v == scale(&mirrored)
    }

    // Every position named a draw here is a draw in Bastion's KBPKB table
    // (`bastion tb probe FEN --dir DIR`); the ones named wins are wins.
    const OPPOSITE_KING_IN_FRONT: &str = "8/8/4k3/8/4P3/4K3/8/2B2b2 w - - 0 1";
    const OPPOSITE_BISHOP_ON_THE_PATH: &str = "8/8/8/2K5/3P4/7b/k7/2B5 w - - 0 1";
    const SAME_KING_ON_THE_OTHER_COLOUR: &str = "8/8/4k2b/8/4P3/4K3/8/2B5 w - - 0 1";
    const SAME_KING_ON_THE_BISHOPS_COLOUR: &str = "5b2/4k3/8/8/4P3/4K3/8/2B5 w - - 0 1";
    const OPPOSITE_PAWN_QUEENS: &str = "8/4P3/3K4/8/8/8/k7/2B4b w - - 0 1";

    #[test]
    fn bishops_of_opposite_colours_hold_with_king_or_bishop_in_front() {
        assert!(fires(OPPOSITE_KING_IN_FRONT));
        assert!(fires(OPPOSITE_BISHOP_ON_THE_PATH));
        // Neither the king nor the bishop stops the pawn on the seventh: a win, not scaled.
        assert!(!fires(OPPOSITE_PAWN_QUEENS));
    }

    #[test]
    fn bishops_of_one_colour_hold_with_the_king_on_the_other_colour() {
        assert!(fires(SAME_KING_ON_THE_OTHER_COLOUR));
        // Also a draw, but the bishop can attack that square: left to the network.
        assert!(!fires(SAME_KING_ON_THE_BISHOPS_COLOUR));
        // The defending king in front, but the stronger king boxed in a corner by its own men.
        assert!(!fires("KB6/5b2/1k6/8/8/8/2P5/8 b - - 0 1"));
    }

    #[test]
    fn path_of_a_pawn_of_either_colour() {
        let squares = |names: &[&str]| names.iter().map(|n| n.parse::<Square>().unwrap()).collect::<Bitboard>();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(path(e4, Color::White), squares(&["e5", "e6", "e7", "e8"]));
        assert_eq!(path(e4, Color::Black), squares(&["e3", "e2", "e1"]));
        assert_eq!(path("a7".parse().unwrap(), Color::White), squares(&["a8"]));
        assert_eq!(path("h2".parse().unwrap(), Color::Black), Bitboard::from_square(Square::H1));
    }

    #[test]
    fn other_material_and_both_symmetries() {
        // A knight or rook ending, two pawns, or a bishop against a knight: no rule.
        assert!(!fires("8/8/4k3/8/4P3/4K3/8/1N4n1 w - - 0 1"));
        assert!(!fires("8/8/4k3/8/4P3/4K3/8/2R2r2 w - - 0 1"));
        assert!(!fires("8/8/4k3/8/3PP3/4K3/8/2B2b2 w - - 0 1"));
        assert!(!fires("8/8/4k3/8/4P3/4K3/8/2B2n2 w - - 0 1"));
        for fen in [
            OPPOSITE_KING_IN_FRONT,
            OPPOSITE_BISHOP_ON_THE_PATH,
            SAME_KING_ON_THE_OTHER_COLOUR,
            SAME_KING_ON_THE_BISHOPS_COLOUR,
            OPPOSITE_PAWN_QUEENS,
        ] {
            assert!(symmetric(fen), "{fen}");
        }
    }

    #[test]
    fn a_rule_makes_the_evaluation_a_draw() {
        let pos = Position::from_fen(OPPOSITE_KING_IN_FRONT).unwrap();
        assert!(super::super::prefers_hand_written(&pos));
        assert_eq!(super::super::evaluate(&pos, &mut super::super::PawnCache::new()), 0);
    }
}
