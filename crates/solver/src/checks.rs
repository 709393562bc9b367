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

/// Generates exactly the legal moves of the side to move that give check
/// (the set `generate_into(All)` filtered by [`CheckInfo::gives_check`]),
/// without generating the others: at the attacker's last move only checks
/// can mate, and most moves are not checks. Declines (returns false, `list`
/// untouched) when the side to move is in check or an en-passant capture is
/// possible; the caller then filters the full list.
pub fn generate_checks(pos: &Position, ci: &CheckInfo, list: &mut bastion_core::MoveList) -> bool {
    if pos.in_check() || pos.ep_square().is_some() {
        return false;
    }
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let not_ours = !ours;
    let our_king = pos.king(us);
    let pinned = pos.pinned();
    let ksq = ci.king;
    // A pinned piece may move only along the line through our king.
    let pin_ok = |from, to| !pinned.contains(from) || attacks::aligned(our_king, from, to);

    for from in pos.pieces(us, Role::Knight) - pinned {
        let mut t = attacks::knight_attacks(from) & not_ours;
        if !ci.discoverers.contains(from) {
            t &= ci.squares[Role::Knight.index()];
        }
        for to in t {
            list.push(Move::normal(from, to));
        }
    }
    let sliders = pos.pieces(us, Role::Bishop) | pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Queen);
    for from in sliders {
        let Some(role) = pos.role_at(from) else { continue };
        let reach = attacks::attacks(role, us, from, occ) & not_ours;
        let mut t = reach & ci.squares[role.index()];
        if ci.discoverers.contains(from) {
            // Leaving the line to the enemy king uncovers the piece behind.
            t |= reach - attacks::line(from, ksq);
        }
        if pinned.contains(from) {
            t &= attacks::line(our_king, from);
        }
        for to in t {
            list.push(Move::normal(from, to));
        }
    }
    if ci.discoverers.contains(our_king) {
        let occ_without = occ.without(our_king);
        for to in attacks::king_attacks(our_king) & not_ours & !attacks::line(our_king, ksq) {
            if !pos.is_attacked_by(to, !us, occ_without) {
                list.push(Move::normal(our_king, to));
            }
        }
    }
    if pos.castling().has_color(us) {
        for &m in pos.legal_moves_from(our_king).iter() {
            if m.is_castling() && ci.gives_check(pos, m) {
                list.push(m);
            }
        }
    }

    let theirs = pos.color_bb(!us);
    let last = bastion_core::Rank::EIGHTH.relative(us);
    let second = bastion_core::Rank::new(1).unwrap_or(bastion_core::Rank::FIRST).relative(us);
    let up: i32 = match us {
        bastion_core::Color::White => 8,
        bastion_core::Color::Black => -8,
    };
    let pawn_checks = ci.squares[Role::Pawn.index()];
    for from in pos.pieces(us, Role::Pawn) {
        let disc = ci.discoverers.contains(from);
        let mut targets = attacks::pawn_attacks(us, from) & theirs;
        let one = bastion_core::Square::from_index((from.index() as i32 + up) as usize);
        if !occ.contains(one) {
            targets.set(one);
            if from.rank() == second {
                let two = bastion_core::Square::from_index((from.index() as i32 + 2 * up) as usize);
                if !occ.contains(two) {
                    targets.set(two);
                }
            }
        }
        for to in targets {
            if !pin_ok(from, to) {
                continue;
            }
            if to.rank() == last {
                for role in Role::PROMOTIONS {
                    let m = Move::promotion(from, to, role);
                    if ci.gives_check(pos, m) {
                        list.push(m);
                    }
                }
            } else if pawn_checks.contains(to) || (disc && !attacks::aligned(from, to, ksq)) {
                list.push(Move::normal(from, to));
            }
        }
    }
    true
}

#[cfg(test)]
mod generation_tests {
    use super::*;
    use bastion_core::MoveList;

    /// The generated checks equal the legal moves filtered by `gives_check`,
    /// on every position up to two plies from problem and tactical positions.
    #[test]
    fn checks_only_generation_equals_filtered_list() {
        let mut start: Vec<Position> = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/3B4/8/1R6/4N3/4K3 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ]
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
        for line in include_str!("../tests/data/mates-sample.epd").lines() {
            if let Ok(e) = crate::epd::parse_line(line, 0) {
                start.push(e.position);
            }
        }
        let mut frontier = start;
        let (mut tested, mut checks) = (0, 0);
        for _ in 0..3 {
            let mut next = Vec::new();
            for p in &frontier {
                let ci = CheckInfo::new(p);
                let mut got = MoveList::new();
                if generate_checks(p, &ci, &mut got) {
                    let mut want: Vec<u16> =
                        p.legal_moves().iter().filter(|&&m| ci.gives_check(p, m)).map(|m| m.raw()).collect();
                    let mut got: Vec<u16> = got.iter().map(|m| m.raw()).collect();
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{}", p.fen());
                    tested += 1;
                    checks += want.len();
                }
                for &m in p.legal_moves().iter() {
                    if next.len() < 6000 {
                        next.push(p.play(m));
                    }
                }
            }
            frontier = next;
        }
        assert!(tested > 3000 && checks > 5000, "{tested} positions, {checks} checks");
    }
}
