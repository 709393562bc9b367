//! The direct-mate search: zero-evaluation alpha-beta in its boolean form.
//!
//! With every non-terminal leaf scored 0 and mate scored by distance, an
//! alpha-beta search whose window sits just below "mate in n" can only return
//! "at least mate in n" or "at most 0"; it is therefore exactly the AND/OR
//! search below ([`Solver::attack`] / [`Solver::defend`]), minus the score
//! bookkeeping. Iterating n = 1, 2, … makes the first mate found the shortest.
//!
//! Repetitions need no special value: a mate that passes twice through the
//! same position can be shortened by cutting out the cycle, so a shortest mate
//! never repeats, and a defender who repeats only hands the attacker a position
//! it already had with more moves to spare. Stalemate fails for the attacker.

use crate::checks::CheckInfo;
use crate::tt::{Probe, Table};
use bastion_core::moves::MAX_MOVES;
use bastion_core::{Color, Move, MoveList, Position, Role};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Longest mate searched; public entry points clamp to it.
pub const MAX_MATE: u8 = 63;

/// Deepest ply the per-ply tables cover: two per move of [`MAX_MATE`] and spare.
pub(crate) const MAX_PLY: usize = 2 * MAX_MATE as usize + 4;

/// A node's move list and ordering scores, kept per ply so no node has to
/// zero 1.5 KB of stack (that memset was 15% of the run time).
#[derive(Clone)]
struct PlyBuf {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
}

/// Material values for ordering captures (most valuable victim first).
const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Aborted {
    /// The stop flag was raised.
    #[error("stopped")]
    Stopped,
    /// The time limit ran out.
    #[error("time limit reached")]
    TimeUp,
}

/// A mate solver with its transposition table and ordering statistics.
/// Reuse one across positions to keep the allocation; the table is cleared
/// per [`crate::Stipulation`] run only when the caller asks.
pub struct Solver<'s> {
    pub(crate) tt: Table,
    pub(crate) nodes: u64,
    stop: Option<&'s AtomicBool>,
    deadline: Option<Instant>,
    pub(crate) aborted: Option<Aborted>,
    /// Attacker moves that proved mates, per ply.
    killers: [[Move; 2]; MAX_PLY],
    /// Defender moves that refuted, per ply.
    refutations: [[Move; 2]; MAX_PLY],
    /// Attacker/defender history by colour, from and to square.
    history: Vec<u32>,
    /// Salt XORed into keys so different stipulations never share entries.
    pub(crate) salt: u64,
    /// Restriction on the attacker's moves (fast pre-passes whose mates are
    /// real mates): 0 none, 1 checks only, 2 checks and mate threats.
    restrict: u8,
    /// Per-ply buffers; the last one belongs to [`Solver::mate_in_one`].
    bufs: Vec<PlyBuf>,
}

/// Counts and flags shared by all stipulations.
impl<'s> Solver<'s> {
    /// A solver with a transposition table of about `tt_mb` megabytes.
    pub fn new(tt_mb: usize) -> Solver<'s> {
        Solver {
            tt: Table::new(tt_mb),
            nodes: 0,
            stop: None,
            deadline: None,
            aborted: None,
            killers: [[Move::NULL; 2]; MAX_PLY],
            refutations: [[Move::NULL; 2]; MAX_PLY],
            history: vec![0; 2 * 64 * 64],
            salt: 0,
            restrict: 0,
            bufs: vec![PlyBuf { moves: MoveList::new(), scores: [0; MAX_MOVES] }; MAX_PLY + 1],
        }
    }

    /// Makes searches give up when `flag` becomes true.
    pub fn set_stop(&mut self, flag: &'s AtomicBool) {
        self.stop = Some(flag);
    }

    /// Makes searches give up at `deadline` (None: no limit).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Positions visited since creation (or the last [`Solver::reset_nodes`]).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the node counter.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Forgets all stored results and ordering statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers = [[Move::NULL; 2]; MAX_PLY];
        self.refutations = [[Move::NULL; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
        self.aborted = None;
    }

    /// Why the last search gave up, if it did.
    pub fn aborted(&self) -> Option<Aborted> {
        self.aborted
    }

    /// Counts a node and polls the limits now and then.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 2047 == 0 {
            if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                self.aborted = Some(Aborted::Stopped);
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some(Aborted::TimeUp);
            }
        }
        self.aborted.is_none()
    }

    /// Turns a raw boolean into a result, failing if the search was cut short.
    pub(crate) fn finish<T>(&self, v: T) -> Result<T, Aborted> {
        match self.aborted {
            Some(a) => Err(a),
            None => Ok(v),
        }
    }

    /// The buffer of ply `i`.
    ///
    /// SAFETY: the returned reference is not tied to `self`. It is sound
    /// because `bufs` never reallocates after construction and each active
    /// search frame uses a distinct index: a node at ply p uses `bufs[p]`, its
    /// descendants use higher plies, and `mate_in_one` (which calls nothing
    /// that takes a buffer) uses the last one.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    fn buf<'b>(&self, i: usize) -> &'b mut PlyBuf {
        assert!(i < self.bufs.len());
        unsafe { &mut *(self.bufs.as_ptr().add(i) as *mut PlyBuf) }
    }

    #[inline]
    fn hist(&self, side: Color, m: Move) -> u32 {
        self.history[side.index() * 4096 + m.from().index() * 64 + m.to().index()]
    }

    #[inline]
    fn bump(&mut self, side: Color, m: Move, n: u8) {
        let h = &mut self.history[side.index() * 4096 + m.from().index() * 64 + m.to().index()];
        *h = h.saturating_add((n as u32) * (n as u32));
    }

    // ----- direct mate -----

    /// Checks the stop flag and deadline now, so a search asked to stop before
    /// it starts gives up even if it would need fewer nodes than the polling interval.
    fn poll(&mut self) {
        self.aborted = None;
        if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.aborted = Some(Aborted::Stopped);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = Some(Aborted::TimeUp);
        }
    }

    /// Does the side to move mate within `n` moves? Err if stopped.
    pub fn mate_within(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.poll();
        let v = self.attack(pos, n.min(MAX_MATE), 0);
        self.finish(v)
    }

    /// Is the side to move mated within `n` moves of the opponent, whatever it plays?
    pub fn mated_within(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.poll();
        let v = self.defend(pos, n.min(MAX_MATE), 0);
        self.finish(v)
    }

    /// Runs [`Solver::mate_within`] with the attacker restricted to checks:
    /// much cheaper, and any mate it finds is a real mate.
    pub fn checking_mate_within(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.restricted_mate_within(pos, n, 1)
    }

    /// Runs [`Solver::mate_within`] with the attacker restricted to checks and
    /// to quiet moves that threaten mate in one: still far narrower than full
    /// width, and it finds most quiet keys of game positions.
    pub fn threatening_mate_within(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.restricted_mate_within(pos, n, 2)
    }

    fn restricted_mate_within(&mut self, pos: &Position, n: u8, level: u8) -> Result<bool, Aborted> {
        self.poll();
        let saved = self.salt;
        // Restricted failures are not real failures: keep them apart.
        self.salt ^= 0x5bd1_e995_9e37_79b9u64.wrapping_mul(level as u64);
        self.restrict = level;
        let v = self.attack(pos, n.min(MAX_MATE), 0);
        self.restrict = 0;
        self.salt = saved;
        self.finish(v)
    }

    /// A checking move that mates at once.
    pub(crate) fn mate_in_one(&mut self, pos: &Position) -> Option<Move> {
        self.mate_in_one_at(pos, MAX_PLY - 1)
    }

    /// [`Solver::mate_in_one`]; `ply` is kept for symmetry with the callers.
    fn mate_in_one_at(&mut self, pos: &Position, _ply: usize) -> Option<Move> {
        let list = &mut self.buf(MAX_PLY).moves;
        list.clear();
        pos.generate_into(bastion_core::GenType::All, list);
        let ci = CheckInfo::new(pos);
        for &m in list.iter() {
            if ci.gives_check(pos, m) {
                self.nodes += 1;
                if !pos.play(m).has_legal_moves() {
                    return Some(m);
                }
            }
        }
        None
    }

    /// Attacker to move: is there a mate within `n` (≥ 1) moves?
    pub(crate) fn attack(&mut self, pos: &Position, n: u8, ply: usize) -> bool {
        if !self.tick() {
            return false;
        }
        let key = pos.key() ^ self.salt;
        let tt_move = match self.tt.probe(key, n) {
            Probe::Win => return true,
            Probe::Fail => return false,
            Probe::Unknown(m) => m,
        };
        if n == 1 {
            let m = self.mate_in_one_at(pos, ply.min(MAX_PLY - 1));
            self.tt.store(key, 1, m.is_some(), m.unwrap_or(Move::NULL));
            return m.is_some();
        }
        let us = pos.side_to_move();
        let ply_i = ply.min(MAX_PLY - 1);
        let buf = self.buf(ply_i);
        let moves = &mut buf.moves;
        let scores = &mut buf.scores;
        moves.clear();
        pos.generate_into(bastion_core::GenType::All, moves);
        let ci = CheckInfo::new(pos);
        let killers = self.killers[ply_i];

        // Score every move. Checks are played once here to count the replies
        // (fewest first, as proof-number search would); a check with no reply
        // is an immediate mate. Far from the leaves, quiet moves are probed
        // for a threat: pass the defender's turn and look for a mate in one.
        let threats = n >= 3 && self.restrict != 1;
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            let check = ci.gives_check(pos, m);
            if self.restrict == 1 && !check {
                continue;
            }
            let capture = pos.role_at(m.to()).filter(|_| !m.is_castling()).map(|r| VALUE[r.index()]);
            let mut effort = 0u8;
            let s = if m == tt_move {
                1 << 30
            } else if check {
                let child = pos.play(m);
                self.nodes += 1;
                if threats {
                    effort = self.tt.effort(child.key() ^ self.salt);
                }
                let replies = child.count_legal_moves() as i32;
                if replies == 0 {
                    self.tt.store(key, 1, true, m);
                    return true;
                }
                (1 << 28) - replies.min(60) * (1 << 22) + capture.unwrap_or(0)
            } else {
                let base = if m.promotion_role() == Some(Role::Queen) {
                    1 << 21
                } else if let Some(v) = capture {
                    (1 << 20) + v * 16 - pos.role_at(m.from()).map_or(0, |r| VALUE[r.index()])
                } else if m == killers[0] || m == killers[1] {
                    1 << 19
                } else {
                    self.hist(us, m).min((1 << 18) - 1) as i32
                };
                if threats || self.restrict == 2 {
                    let child = pos.play(m);
                    effort = self.tt.effort(child.key() ^ self.salt);
                    self.nodes += 1;
                    if !child.in_check() && self.mate_in_one(&child.play_null()).is_some() {
                        base + (1 << 25)
                    } else if self.restrict == 2 {
                        continue;
                    } else {
                        base
                    }
                } else {
                    base
                }
            };
            // Far from the leaves, the size of the last refutation of this move
            // ranks first: near-misses come before moves refuted at once.
            scores[kept] = if !threats || m == tt_move { s } else { ((effort as i32) << 24) + (s >> 7) };
            moves[kept] = m;
            kept += 1;
        }
        let len = kept;
        for i in 0..len {
            // Selection sort step: cut-offs usually come early, so sorting lazily pays.
            let mut best = i;
            for j in i + 1..len {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            scores.swap(i, best);
            moves.swap(i, best);
            let m = moves[i];
            let child = pos.play(m);
            if self.defend(&child, n - 1, ply + 1) {
                if self.aborted.is_some() {
                    return false;
                }
                self.tt.store(key, n, true, m);
                remember(&mut self.killers[ply_i], m);
                self.bump(us, m, n);
                return true;
            }
            if self.aborted.is_some() {
                return false;
            }
        }
        self.tt.store(key, n, false, Move::NULL);
        false
    }

    /// Defender to move, attacker then has `n` moves (n = 0: the defender
    /// must already be mated): does every defence lose?
    pub(crate) fn defend(&mut self, pos: &Position, n: u8, ply: usize) -> bool {
        if n == 0 {
            return pos.in_check() && !pos.has_legal_moves();
        }
        if !self.tick() {
            return false;
        }
        let key = pos.key() ^ self.salt;
        let tt_move = match self.tt.probe(key, n) {
            Probe::Win => return true,
            Probe::Fail => return false,
            Probe::Unknown(m) => m,
        };
        let us = pos.side_to_move();
        let ply_i = ply.min(MAX_PLY - 1);
        let refs = self.refutations[ply_i];
        let start_nodes = self.nodes;
        // Try the remembered refutations before generating anything: most
        // defender nodes are refuted by one of them, and then the full move
        // list is never needed.
        let mut tried = [Move::NULL; 3];
        for (i, m) in [tt_move, refs[0], refs[1]].into_iter().enumerate() {
            if m.is_null() || tried.contains(&m) || !crate::checks::is_legal_fast(pos, m) {
                continue;
            }
            tried[i] = m;
            if !self.attack(&pos.play(m), n, ply + 1) {
                if self.aborted.is_some() {
                    return false;
                }
                let spent = self.nodes - start_nodes;
                self.tt.store_effort(key, n, false, m, (64 - spent.leading_zeros()) as u8);
                return false;
            }
        }
        let buf = self.buf(ply_i);
        let list = &mut buf.moves;
        let scores = &mut buf.scores;
        list.clear();
        pos.generate_into(bastion_core::GenType::All, list);
        if list.is_empty() {
            return pos.in_check();
        }
        list.retain(|m| !tried.contains(&m));
        let king = pos.king(us);
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                1 << 30
            } else if m == refs[0] || m == refs[1] {
                1 << 29
            } else if let Some(r) = pos.role_at(m.to()).filter(|_| !m.is_castling()) {
                (1 << 27) + VALUE[r.index()] * 16
            } else if m.from() == king {
                (1 << 26) + self.hist(us, m).min(1 << 20) as i32
            } else {
                self.hist(us, m).min((1 << 24) - 1) as i32
            };
        }
        for i in 0..list.len() {
            let mut best = i;
            for j in i + 1..list.len() {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            scores.swap(i, best);
            list.swap(i, best);
            let m = list[i];
            let child = pos.play(m);
            if !self.attack(&child, n, ply + 1) {
                if self.aborted.is_some() {
                    return false;
                }
                let spent = self.nodes - start_nodes;
                self.tt.store_effort(key, n, false, m, (64 - spent.leading_zeros()) as u8);
                remember(&mut self.refutations[ply_i], m);
                self.bump(us, m, n);
                return false;
            }
            if self.aborted.is_some() {
                return false;
            }
        }
        self.tt.store(key, n, true, Move::NULL);
        true
    }
}

/// Puts `m` first in a two-slot move memory (killers, refutations), keeping the previous first.
fn remember(slots: &mut [Move; 2], m: Move) {
    if slots[0] != m {
        slots[1] = slots[0];
        slots[0] = m;
    }
}
