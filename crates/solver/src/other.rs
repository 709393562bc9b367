//! Selfmates, helpmates and series-movers: the same boolean search with
//! other goals.

use crate::checks::CheckInfo;
use crate::search::Solver;
use crate::tt::Probe;
use bastion_core::{GenType, Move, MoveList, Position};

/// Salts that keep each stipulation's table entries apart.
pub(crate) const SALT_SELF: u64 = 0x9e37_79b9_7f4a_7c15;
const SALT_HELP: u64 = 0xc2b2_ae3d_27d4_eb4f;
const SALT_SERIES: u64 = 0x1656_67b1_9e37_79f9;
/// Per-depth keys for the exact-length stipulations (their results are not monotone in depth).
const DEPTH_MIX: u64 = 0xff51_afd7_ed55_8ccd;

impl<'s> Solver<'s> {
    /// Selfmate, the side to move (the "attacker") to play: can it force the
    /// opponent to mate it within `n` of its own moves?
    pub(crate) fn self_attack(&mut self, pos: &Position, n: u8) -> bool {
        if !self.tick() {
            return false;
        }
        let key = pos.key() ^ SALT_SELF;
        let tt_move = match self.tt.probe(key, n) {
            Probe::Win => return true,
            Probe::Fail => return false,
            Probe::Unknown(m) => m,
        };
        let mut list = pos.legal_moves();
        if let Some(i) = list.iter().position(|&m| m == tt_move) {
            list.swap(0, i);
        }
        for &m in list.iter() {
            let child = pos.play(m);
            if self.self_defend(&child, n - 1) {
                if self.aborted.is_some() {
                    return false;
                }
                self.tt.store(key, n, true, m);
                return true;
            }
            if self.aborted.is_some() {
                return false;
            }
        }
        self.tt.store(key, n, false, Move::NULL);
        false
    }

    /// Selfmate, defender to move with the attacker keeping `j` more moves:
    /// does every defence either mate the attacker now or lose within `j`?
    pub(crate) fn self_defend(&mut self, pos: &Position, j: u8) -> bool {
        if !self.tick() {
            return false;
        }
        let key = pos.key() ^ SALT_SELF;
        let tt_move = match self.tt.probe(key, j + 1) {
            Probe::Win => return true,
            Probe::Fail => return false,
            Probe::Unknown(m) => m,
        };
        let mut list = pos.legal_moves();
        if list.is_empty() {
            // Mated or stalemated by the attacker: the stipulation failed.
            return false;
        }
        if let Some(i) = list.iter().position(|&m| m == tt_move) {
            list.swap(0, i);
        }
        let ci = CheckInfo::new(pos);
        for &m in list.iter() {
            let child = pos.play(m);
            let mates = ci.gives_check(pos, m) && !child.has_legal_moves();
            if mates {
                continue;
            }
            if j == 0 || !self.self_attack(&child, j) {
                if self.aborted.is_some() {
                    return false;
                }
                self.tt.store(key, j + 1, false, m);
                return false;
            }
        }
        if self.aborted.is_some() {
            return false;
        }
        self.tt.store(key, j + 1, true, Move::NULL);
        true
    }

    /// Helpmate: every line of exactly `plies` half-moves from `pos` that ends
    /// with the last mover checkmating. Appends each as a move list to `out`.
    pub(crate) fn help_lines(
        &mut self,
        pos: &Position,
        plies: u8,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) -> bool {
        if !self.tick() {
            return false;
        }
        let mut list = MoveList::new();
        pos.generate_into(GenType::All, &mut list);
        if plies == 1 {
            return record_mates(pos, &list, &CheckInfo::new(pos), path, out);
        }
        let key = pos.key() ^ SALT_HELP ^ (plies as u64).wrapping_mul(DEPTH_MIX);
        if self.tt.probe(key, 1) == Probe::Fail {
            return false;
        }
        let mut found = false;
        for &m in list.iter() {
            let child = pos.play(m);
            self.nodes += 1;
            path.push(m);
            found |= self.help_lines(&child, plies - 1, path, out);
            path.pop();
            if self.aborted.is_some() {
                return false;
            }
        }
        if !found {
            self.tt.store(key, 1, false, Move::NULL);
        }
        found
    }

    /// Series-mover: every sequence of `n` consecutive moves by the side to
    /// move, none giving check before the last, the last giving mate.
    pub(crate) fn series_lines(
        &mut self,
        pos: &Position,
        n: u8,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) -> bool {
        if !self.tick() {
            return false;
        }
        let mut list = MoveList::new();
        pos.generate_into(GenType::All, &mut list);
        let ci = CheckInfo::new(pos);
        if n == 1 {
            return record_mates(pos, &list, &ci, path, out);
        }
        let key = pos.key() ^ SALT_SERIES ^ (n as u64).wrapping_mul(DEPTH_MIX);
        if self.tt.probe(key, 1) == Probe::Fail {
            return false;
        }
        let mut found = false;
        for &m in list.iter() {
            if ci.gives_check(pos, m) {
                continue;
            }
            // The opponent does not move: pass its turn straight back.
            let child = pos.play(m).play_null();
            self.nodes += 1;
            path.push(m);
            found |= self.series_lines(&child, n - 1, path, out);
            path.pop();
            if self.aborted.is_some() {
                return false;
            }
        }
        if !found {
            self.tt.store(key, 1, false, Move::NULL);
        }
        found
    }
}

/// Appends `path` + each mating move of `list` to `out`; true if there was one.
fn record_mates(
    pos: &Position,
    list: &MoveList,
    ci: &CheckInfo,
    path: &mut Vec<Move>,
    out: &mut Vec<Vec<Move>>,
) -> bool {
    let mut found = false;
    for &m in list.iter() {
        if ci.gives_check(pos, m) && !pos.play(m).has_legal_moves() {
            path.push(m);
            out.push(path.clone());
            path.pop();
            found = true;
        }
    }
    found
}
