//! Fast "does this move give check?" for whole move lists.
//!
//! The core's [`Position::gives_check`] recomputes the discovered-check
//! blockers for every move; here they are computed once per node, together
//! with the squares from which each piece type would hit the enemy king.
//! That makes "checking moves only" at the attacker's last move nearly free.

use bastion_core::{attacks, Bitboard, Move, MoveKind, Position, Role};

/// Per-node data for check detection.
pub struct CheckInfo {
    /// For each role, the squares from which it would attack the enemy king.
    squares: [Bitboard; 6],
    /// Our pieces that block our own slider's line to the enemy king.
    discoverers: Bitboard,
    king: bastion_core::Square,
}

impl CheckInfo {
    /// Prepares check detection for the side to move in `pos`.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = !us;
        let king = pos.king(them);
        let occ = pos.occupied();
        let bishop = attacks::bishop_attacks(king, occ);
        let rook = attacks::rook_attacks(king, occ);
        CheckInfo {
            squares: [
                attacks::pawn_attacks(them, king),
                attacks::knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
            discoverers: pos.blockers_for_king(them) & pos.color_bb(us),
            king,
        }
    }

    /// True if the legal move `m` gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            return pos.gives_check(m);
        }
        let (from, to) = (m.from(), m.to());
        let Some(role) = pos.role_at(from) else { return false };
        if self.squares[role.index()].contains(to) {
            return true;
        }
        self.discoverers.contains(from) && (role == Role::Knight || !attacks::aligned(from, to, self.king))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_core() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3B4/8/1R6/4N3/4K3 w - - 0 1",
            "3k4/8/8/2PpP3/8/8/8/2B1K2R w K d6 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            let ci = CheckInfo::new(&p);
            for &m in p.legal_moves().iter() {
                assert_eq!(ci.gives_check(&p, m), p.play(m).in_check(), "{fen} {m:?}");
            }
        }
    }
}

/// Exact legality of a move remembered from another position (a killer or
/// table move), without building a move list: the core's
/// [`Position::is_legal`] generates the piece's moves into a fresh list,
/// which cost a fifth of the solver's time. Special moves defer to the core.
pub fn is_legal_fast(pos: &Position, m: Move) -> bool {
    if m.is_null() {
        return false;
    }
    if m.kind() != MoveKind::Normal {
        return pos.is_legal(m);
    }
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(pc) = pos.piece_at(from) else { return false };
    if pc.color != us || pos.color_bb(us).contains(to) {
        return false;
    }
    let occ = pos.occupied();
    let them = pos.color_bb(!us);
    let reach = match pc.role {
        Role::Pawn => {
            // Promotions are MoveKind::Promotion; a normal pawn move to the last rank is malformed.
            if (Bitboard::rank(bastion_core::Rank::EIGHTH.relative(us))).contains(to) {
                return false;
            }
            let caps = attacks::pawn_attacks(us, from) & them;
            let up = |b: Bitboard| match us {
                bastion_core::Color::White => Bitboard(b.0 << 8),
                bastion_core::Color::Black => Bitboard(b.0 >> 8),
            };
            let one = up(Bitboard::from_square(from)) - occ;
            let start = Bitboard::rank(bastion_core::Rank::new(1).unwrap_or(bastion_core::Rank::FIRST).relative(us));
            let two = if start.contains(from) { up(one) - occ } else { Bitboard::EMPTY };
            caps | one | two
        }
        role => attacks::attacks(role, us, from, occ),
    };
    if !reach.contains(to) {
        return false;
    }
    let king = pos.king(us);
    if pc.role == Role::King {
        return !pos.is_attacked_by(to, !us, occ.without(from));
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    if let Some(c) = checkers.first() {
        if !(attacks::between(king, c).contains(to) || to == c) {
            return false;
        }
    }
    !pos.pinned().contains(from) || attacks::aligned(king, from, to)
}

#[cfg(test)]
mod legality_tests {
    use super::*;

    #[test]
    fn fast_legality_agrees_with_core_on_foreign_moves() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3k4/8/8/2PpP3/8/8/8/2B1K2R w K d6 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "4k3/8/8/8/8/5n2/8/4K2R w K - 0 1",
        ];
        let positions: Vec<Position> = fens.iter().map(|f| Position::from_fen(f).unwrap()).collect();
        let mut all = Vec::new();
        for p in &positions {
            all.push(p.clone());
            for &m in p.legal_moves().iter() {
                all.push(p.play(m));
            }
        }
        // Every move legal somewhere, tried everywhere.
        let mut moves: Vec<Move> = all.iter().flat_map(|p| p.legal_moves().to_vec()).collect();
        moves.sort_by_key(|m| m.raw());
        moves.dedup();
        for p in &all {
            for &m in &moves {
                assert_eq!(is_legal_fast(p, m), p.is_legal(m), "{} {m:?}", p.fen());
            }
        }
    }
}
