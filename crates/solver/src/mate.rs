//! "Does this check mate?" without playing the move.
//!
//! Half of a mate search's nodes are the attacker's checks at its last move,
//! each asking whether the defender has any legal reply. Playing the move
//! copies the whole position and the core then generates every reply; here
//! the position after the move is described by a few bitboards and the
//! replies are looked for in the order that usually finds one first (king
//! flights, then captures and blocks), stopping at the first.

use bastion_core::{attacks, Bitboard, Move, MoveKind, Position, Role};

/// True if the legal move `m`, which must give check, leaves the opponent
/// without a legal reply (checkmate). Moves whose side effects the bitboard
/// description below does not cover (castling, en passant, promotions, double
/// pawn pushes that may allow an en-passant reply) are played for real.
pub fn check_mates(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let double_push = pos.role_at(from) == Some(Role::Pawn) && (from.index() ^ to.index()) == 16;
    if m.kind() != MoveKind::Normal || double_push {
        return !pos.play(m).has_legal_moves();
    }
    let Some(role) = pos.role_at(from) else { return false };
    let us = pos.side_to_move();
    let them = !us;
    let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
    let occ = (pos.occupied() - fb) | tb;
    let theirs = pos.color_bb(them) - tb;
    // Our pieces of each role after the move (the mover leaves `from` for `to`).
    let mine = |r: Role| {
        let b = pos.pieces(us, r);
        if r == role {
            (b - fb) | tb
        } else {
            b
        }
    };
    let (pawns, knights, king) = (mine(Role::Pawn), mine(Role::Knight), mine(Role::King));
    let diag = mine(Role::Bishop) | mine(Role::Queen);
    let orth = mine(Role::Rook) | mine(Role::Queen);
    let ksq = pos.king(them);
    let attacked = |sq, occ: Bitboard| {
        (attacks::pawn_attacks(them, sq) & pawns).nonempty()
            || (attacks::knight_attacks(sq) & knights).nonempty()
            || (attacks::king_attacks(sq) & king).nonempty()
            || (attacks::bishop_attacks(sq, occ) & diag).nonempty()
            || (attacks::rook_attacks(sq, occ) & orth).nonempty()
    };

    // King flights (captures included), with the king off the board so a
    // slider's line through its square still counts.
    let no_king = occ.without(ksq);
    for sq in attacks::king_attacks(ksq) - theirs {
        if !attacked(sq, no_king) {
            return false;
        }
    }
    let checkers = (attacks::pawn_attacks(them, ksq) & pawns)
        | (attacks::knight_attacks(ksq) & knights)
        | (attacks::bishop_attacks(ksq, occ) & diag)
        | (attacks::rook_attacks(ksq, occ) & orth);
    if checkers.more_than_one() {
        return true;
    }
    let Some(checker) = checkers.first() else {
        // Not a check after all: the caller broke the contract; answer exactly.
        return !pos.play(m).has_legal_moves();
    };
    let targets = attacks::between(ksq, checker); // the checker included

    // A piece pinned to its king can never capture or block a single check
    // (it would have to leave the pin line, which meets the check line only
    // at the king), so only unpinned pieces are asked.
    let mut pinned = Bitboard::EMPTY;
    let snipers =
        (attacks::bishop_attacks(ksq, Bitboard::EMPTY) & diag) | (attacks::rook_attacks(ksq, Bitboard::EMPTY) & orth);
    for s in snipers {
        // `between` includes its far end, the sniper itself.
        let b = (attacks::between(ksq, s) & occ).without(s);
        if !b.more_than_one() {
            pinned |= b & theirs;
        }
    }
    let free = theirs - pinned;
    let theirs_of = |r: Role| pos.pieces(them, r) & free;
    for f in theirs_of(Role::Knight) {
        if (attacks::knight_attacks(f) & targets).nonempty() {
            return false;
        }
    }
    let their_diag = theirs_of(Role::Bishop) | theirs_of(Role::Queen);
    for f in their_diag {
        if (attacks::bishop_attacks(f, occ) & targets).nonempty() {
            return false;
        }
    }
    let their_orth = theirs_of(Role::Rook) | theirs_of(Role::Queen);
    for f in their_orth {
        if (attacks::rook_attacks(f, occ) & targets).nonempty() {
            return false;
        }
    }
    let their_pawns = theirs_of(Role::Pawn);
    if their_pawns.nonempty() {
        // Captures of the checker.
        if (attacks::pawn_attacks(us, checker) & their_pawns).nonempty() {
            return false;
        }
        // Pushes onto the check line (its squares are empty), single and double.
        let blocks = targets.without(checker);
        let (single, third) = match them {
            bastion_core::Color::White => (
                Bitboard(their_pawns.0 << 8) - occ,
                Bitboard::rank(bastion_core::Rank::new(2).unwrap_or(bastion_core::Rank::FIRST)),
            ),
            bastion_core::Color::Black => (
                Bitboard(their_pawns.0 >> 8) - occ,
                Bitboard::rank(bastion_core::Rank::new(5).unwrap_or(bastion_core::Rank::FIRST)),
            ),
        };
        if (single & blocks).nonempty() {
            return false;
        }
        let double = match them {
            bastion_core::Color::White => Bitboard((single & third).0 << 8) - occ,
            bastion_core::Color::Black => Bitboard((single & third).0 >> 8) - occ,
        };
        if (double & blocks).nonempty() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::CheckInfo;

    /// Every check of every position up to two plies from a set of tactical
    /// and problem positions: the fast answer equals the core's checkmate test.
    #[test]
    fn agrees_with_core_on_every_check() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1Q1Nk2n/K2n3p/1pB2p1B/p3pN1b/1b6/1qp5/4pr2/8 w - - 0 1",
            "2Q5/2p2B1p/7k/2p3p1/5pp1/K7/4N3/b7 w - - 0 1",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "4k3/8/4K3/8/8/8/8/7R w - - 0 1",
            "7k/8/5KQ1/8/8/8/8/8 w - - 0 1",
            "3k4/3p4/8/8/8/8/3Q4/3K4 b - - 0 1",
            "4r1k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            "8/8/8/8/8/5k2/4p3/6K1 b - - 0 1",
        ];
        let mut checked = 0;
        let mut mates = 0;
        let mut frontier: Vec<Position> = fens.iter().map(|f| Position::from_fen(f).unwrap()).collect();
        // Problem positions: mates with pinned blockers, interferences, promotions.
        for line in include_str!("../tests/data/mates-sample.epd").lines() {
            if let Ok(e) = crate::epd::parse_line(line, 0) {
                frontier.push(e.position);
            }
        }
        for _ in 0..3 {
            let mut next = Vec::new();
            for p in &frontier {
                let ci = CheckInfo::new(p);
                for &m in p.legal_moves().iter() {
                    if ci.gives_check(p, m) {
                        let want = p.play(m).is_checkmate();
                        assert_eq!(check_mates(p, m), want, "{} {}", p.fen(), p.to_uci(m));
                        checked += 1;
                        mates += want as u32;
                    }
                    if next.len() < 4000 {
                        next.push(p.play(m));
                    }
                }
            }
            frontier = next;
        }
        assert!(checked > 1000 && mates > 20, "{checked} checks, {mates} mates");
    }
}
