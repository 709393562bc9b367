//! Random legal positions of a given material, for cross-checking Syzygy probes
//! against an outside prober.
//!
//! A position is legal when Bastion's FEN rules and shakmaty's stricter ones (no
//! impossible double checks) both accept it, so that any probe failure on it is a
//! real failure. Positions with an en-passant square are made the way a game makes
//! them: the pawn of the side not to move has just double-pushed, and the position
//! before that push was legal too.

use bastion_core::rng::Rng;
use bastion_core::{Color, Piece, Position, Role, Square};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::material::{Material, MaterialError};

/// Tries per position before giving up; only hopeless material (more men than squares
/// allow) runs out, and such material is refused before any try.
const ATTEMPTS: usize = 100_000;

/// Parses a Syzygy table name such as `KQvKR` (Bastion's `KQKR` is accepted too).
pub fn parse_syzygy_name(name: &str) -> Result<Material, MaterialError> {
    Material::parse(&name.replacen(['v', 'V'], "", 1))
}

/// The Syzygy name of a material, e.g. `KQvKR`.
pub fn syzygy_name(material: &Material) -> String {
    let name = material.name();
    let black = name[1..].find('K').map_or(name.len(), |i| i + 1);
    format!("{}v{}", &name[..black], &name[black..])
}

/// True when shakmaty accepts `pos` as a legal standard-chess position.
pub fn accepted_by_shakmaty(pos: &Position) -> bool {
    pos.fen().parse::<Fen>().ok().and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok()).is_some()
}

fn random_color(rng: &mut Rng) -> Color {
    if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Puts `pieces` on random free squares (pawns off the back ranks), avoiding `taken`.
fn scatter(pieces: &[Piece], taken: u64, rng: &mut Rng) -> Vec<(Square, Piece)> {
    let mut used = taken;
    let mut out = Vec::with_capacity(pieces.len());
    for &pc in pieces {
        loop {
            let i = rng.below(64);
            let back_rank = !(8..56).contains(&i);
            if used & (1 << i) != 0 || (pc.role == Role::Pawn && back_rank) {
                continue;
            }
            used |= 1 << i;
            out.push((Square::from_index(i), pc));
            break;
        }
    }
    out
}

/// A random legal position of `material` in either colour orientation, with either
/// side to move, halfmove clock 0 and no castling rights. `None` only when no legal
/// position was found (impossible material).
pub fn random_position(material: &Material, rng: &mut Rng) -> Option<Position> {
    for _ in 0..ATTEMPTS {
        let m = if rng.below(2) == 0 { material.clone() } else { material.flipped() };
        let side = random_color(rng);
        let placed = scatter(&m.pieces(), 0, rng);
        if let Ok(pos) = Position::from_pieces(&placed, side) {
            if accepted_by_shakmaty(&pos) {
                return Some(pos);
            }
        }
    }
    None
}

/// A random legal position of `material` with a legal en-passant capture: the side
/// not to move has just double-pushed a pawn next to a pawn of the side to move.
/// `None` when the material lacks a pawn on either side.
pub fn random_en_passant_position(material: &Material, rng: &mut Rng) -> Option<Position> {
    if !material.sides.iter().all(|s| s.contains(&Role::Pawn)) {
        return None;
    }
    for _ in 0..ATTEMPTS {
        let m = if rng.below(2) == 0 { material.clone() } else { material.flipped() };
        let us = random_color(rng);
        let them = !us;
        // Ranks (0-based) of the pushed pawn before and after, and the square it crossed.
        let (from_rank, to_rank, ep_rank) = if them == Color::Black { (6, 4, 5) } else { (1, 3, 2) };
        let file = rng.below(8);
        let capturer_file = if file == 0 || (file < 7 && rng.below(2) == 0) { file + 1 } else { file - 1 };
        let pushed = Square::from_index(to_rank * 8 + file);
        let origin = Square::from_index(from_rank * 8 + file);
        let ep = Square::from_index(ep_rank * 8 + file);
        let capturer = Square::from_index(to_rank * 8 + capturer_file);
        let mut rest = m.pieces();
        for c in [us, them] {
            let i = rest.iter().position(|p| *p == Piece::new(c, Role::Pawn)).expect("both sides have a pawn");
            rest.remove(i);
        }
        let taken = [pushed, origin, ep, capturer].iter().fold(0u64, |b, s| b | 1 << s.index());
        let mut placed = scatter(&rest, taken, rng);
        placed.push((capturer, Piece::new(us, Role::Pawn)));
        let mut before = placed.clone();
        before.push((origin, Piece::new(them, Role::Pawn)));
        placed.push((pushed, Piece::new(them, Role::Pawn)));
        let Ok(before) = Position::from_pieces(&before, them) else { continue };
        if !accepted_by_shakmaty(&before) {
            continue;
        }
        let Ok(now) = Position::from_pieces(&placed, us) else { continue };
        let epd = now.epd();
        let board_and_side: Vec<&str> = epd.split_whitespace().take(2).collect();
        let fen = format!("{} {} - {} 0 1", board_and_side[0], board_and_side[1], ep);
        // FEN parsing keeps the square only when a legal en-passant capture exists.
        let Ok(pos) = Position::from_fen(&fen) else { continue };
        if pos.ep_square().is_some() && accepted_by_shakmaty(&pos) {
            return Some(pos);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let m = parse_syzygy_name("KRPvKB").unwrap();
        assert_eq!(m.name(), "KRPKB");
        assert_eq!(syzygy_name(&m), "KRPvKB");
        assert_eq!(syzygy_name(&parse_syzygy_name("KQvK").unwrap()), "KQvK");
    }

    #[test]
    fn random_positions_have_the_material_and_repeat_by_seed() {
        let m = parse_syzygy_name("KRvKN").unwrap();
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| random_position(&m, &mut rng).unwrap().fen()).collect::<Vec<_>>()
        };
        let a = run(1);
        assert_eq!(a, run(1));
        assert_ne!(a, run(2));
        let mut sides = [0; 2];
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            let mat = Material::of(&pos);
            assert!(mat == m || mat == m.flipped(), "{fen}");
            sides[pos.side_to_move().index()] += 1;
        }
        assert!(sides[0] > 0 && sides[1] > 0, "both sides to move: {sides:?}");
    }

    #[test]
    fn en_passant_positions_have_a_legal_capture_and_a_legal_past() {
        let m = parse_syzygy_name("KPvKP").unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let pos = random_en_passant_position(&m, &mut rng).unwrap();
            let ep = pos.ep_square().expect("en-passant square kept");
            let captures = pos.legal_moves().iter().filter(|m| m.is_en_passant()).count();
            assert!(captures > 0, "{}", pos.fen());
            assert!(matches!(ep.index() / 8, 2 | 5), "{}", pos.fen());
        }
        assert!(random_en_passant_position(&parse_syzygy_name("KPvK").unwrap(), &mut rng).is_none());
    }
}
