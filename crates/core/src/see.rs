//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, both sides always recapturing with their least valuable piece.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::piece::Role;
use crate::position::Position;

/// Piece values used by SEE (king large so that capturing it ends the sequence).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

impl Position {
    /// True if the exchange started by `m` wins at least `threshold` centipawns
    /// for the side to move (Stockfish's formulation: no full swap list needed).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.kind() != MoveKind::Normal {
            // Castling, promotions and en passant: approximate as material exchanged.
            return self.see_gain_estimate(m) >= threshold;
        }
        let from = m.from();
        let to = m.to();
        let captured = self.role_at(to).map_or(0, |r| SEE_VALUES[r.index()]);
        let mut swap = captured - threshold;
        if swap < 0 {
            return false;
        }
        let Some(mover) = self.role_at(from) else { return false };
        swap = SEE_VALUES[mover.index()] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupied().without(from).without(to);
        let mut stm = self.side_to_move();
        let mut attackers = self.attackers_to(to, occ);
        let mut res = true;
        let diag = self.role_bb(Role::Bishop) | self.role_bb(Role::Queen);
        let orth = self.role_bb(Role::Rook) | self.role_bb(Role::Queen);
        loop {
            stm = !stm;
            attackers &= occ;
            let mut my = attackers & self.color_bb(stm);
            if my.is_empty() {
                break;
            }
            // Pinned pieces may not take part while their pinner is still on the board.
            let pinned = self.blockers_for_king(stm) & self.color_bb(stm);
            if pinned.nonempty() {
                let pinners_alive = self.pinners_of(stm) & occ;
                if pinners_alive.nonempty() {
                    my -= pinned;
                    if my.is_empty() {
                        break;
                    }
                }
            }
            res = !res;
            let role = Role::ALL.into_iter().find(|&r| (my & self.role_bb(r)).nonempty()).unwrap_or(Role::King);
            if role == Role::King {
                // The king may capture only if the opponent has no attacker left.
                return if (attackers & self.color_bb(!stm)).nonempty() { !res } else { res };
            }
            swap = SEE_VALUES[role.index()] - swap;
            if swap < res as i32 {
                break;
            }
            let sq = (my & self.role_bb(role)).lsb();
            occ.clear(sq);
            if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                attackers |= attacks::bishop_attacks(to, occ) & diag;
            }
            if matches!(role, Role::Rook | Role::Queen) {
                attackers |= attacks::rook_attacks(to, occ) & orth;
            }
        }
        res
    }

    /// The SEE value of `m` in centipawns (exact to the resolution of a binary search).
    pub fn see(&self, m: Move) -> i32 {
        let (mut lo, mut hi) = (-SEE_VALUES[4] * 2, SEE_VALUES[4] * 2);
        while lo < hi {
            let mid = (lo + hi + 1).div_euclid(2);
            if self.see_ge(m, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    fn see_gain_estimate(&self, m: Move) -> i32 {
        match m.kind() {
            MoveKind::EnPassant => SEE_VALUES[0],
            MoveKind::Promotion => {
                let cap = self.role_at(m.to()).map_or(0, |r| SEE_VALUES[r.index()]);
                cap + m.promotion_role().map_or(0, |r| SEE_VALUES[r.index()] - SEE_VALUES[0])
            }
            _ => 0,
        }
    }

    /// Enemy sliders that pin a piece of `color` to its king.
    fn pinners_of(&self, color: crate::color::Color) -> Bitboard {
        let king = self.king(color);
        let them = !color;
        let occ = self.occupied();
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & self.orthogonal_sliders(them))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & self.diagonal_sliders(them));
        snipers
            .filter(|&s| {
                let b = attacks::between(king, s).without(s) & occ;
                b.nonempty() && !b.more_than_one()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn see(fen: &str, uci: &str) -> i32 {
        let p = Position::from_fen(fen).unwrap();
        p.see(p.parse_uci(uci).unwrap())
    }

    #[test]
    fn classic_cases() {
        // Free pawn.
        assert_eq!(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Rook takes defended pawn: loses the exchange.
        assert_eq!(see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), -220);
        // Equal trade.
        assert_eq!(see("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
        assert_eq!(see("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);
        // Quiet move to an attacked square loses the piece.
        assert_eq!(see("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -950);
        assert_eq!(see("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d4"), 0);
        assert_eq!(see("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1a4"), 0);
    }
}
