//! The direct-mate search: zero-evaluation alpha-beta in its boolean form.
//!
//! With every non-terminal leaf scored 0 and mate scored by distance, an
//! alpha-beta search whose window sits just below "mate in n" can only return
//! "at least mate in n" or "at most 0"; it is therefore exactly the AND/OR
//! search below (`Solver::attack` / `Solver::defend`), minus the score
//! bookkeeping. Iterating n = 1, 2, … makes the first mate found the shortest.
//!
//! Repetitions need no special value: a mate that passes twice through the
//! same position can be shortened by cutting out the cycle, so a shortest mate
//! never repeats, and a defender who repeats only hands the attacker a position
//! it already had with more moves to spare. Stalemate fails for the attacker.

use crate::checks::CheckInfo;
use crate::progress::{Iteration, ProgressHook};
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
    /// Score and move packed for one sort.
    order: [i64; MAX_MOVES],
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
    /// The node limit ran out (deterministic benchmarks).
    #[error("node limit reached")]
    NodeLimit,
}

/// A mate solver with its transposition table and ordering statistics.
/// Reuse one across positions to keep the allocation; the table is cleared
/// per [`crate::Stipulation`] run only when the caller asks.
pub struct Solver<'s> {
    pub(crate) tt: Table,
    pub(crate) nodes: u64,
    stop: Option<&'s AtomicBool>,
    deadline: Option<Instant>,
    /// Give up once this many nodes have been counted (deterministic limit).
    node_limit: u64,
    /// Node count at which `tick` next looks at the clock and the stop flag.
    next_poll: u64,
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
    /// The salt of full-width results while a restricted pass runs.
    real_salt: u64,
    /// Threat length probed for the root order (0: none, plain [`Solver::attack`] order).
    root_threats: u8,
    /// Per-ply buffers; the last one belongs to [`Solver::mate_in_one`].
    bufs: Vec<PlyBuf>,
    /// Hears each finished pass of the iterative deepening (see [`Solver::set_progress`]).
    progress: Option<ProgressHook<'s>>,
}

/// Counts and flags shared by all stipulations.
impl<'s> Solver<'s> {
    /// A solver with a transposition table of about `tt_mb` megabytes; panics when the
    /// memory is not available (a size from a user goes through [`Solver::try_new`]).
    pub fn new(tt_mb: usize) -> Solver<'s> {
        Solver::try_new(tt_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Solver::new`], but an error instead of an abort when the table's memory
    /// is not available.
    pub fn try_new(tt_mb: usize) -> Result<Solver<'s>, crate::tt::AllocError> {
        Ok(Solver {
            tt: Table::try_new(tt_mb)?,
            nodes: 0,
            stop: None,
            deadline: None,
            node_limit: u64::MAX,
            next_poll: 0,
            aborted: None,
            killers: [[Move::NULL; 2]; MAX_PLY],
            refutations: [[Move::NULL; 2]; MAX_PLY],
            history: vec![0; 2 * 64 * 64],
            salt: 0,
            restrict: 0,
            real_salt: 0,
            root_threats: 2,
            bufs: vec![PlyBuf { moves: MoveList::new(), scores: [0; MAX_MOVES], order: [0; MAX_MOVES] }; MAX_PLY + 1],
            progress: None,
        })
    }

    /// Makes searches give up when `flag` becomes true.
    pub fn set_stop(&mut self, flag: &'s AtomicBool) {
        self.stop = Some(flag);
    }

    /// Calls `hook` after each finished pass of the iterative deepening of
    /// [`Solver::solve`], [`Solver::shortest_mate`] and [`Solver::shortest_mated`]
    /// (see [`Iteration`]), so that a long solve can show its progress. The hook
    /// runs on the solving thread between passes; it never changes a result.
    pub fn set_progress(&mut self, hook: impl FnMut(&Iteration) + Send + 's) {
        self.progress = Some(Box::new(hook));
    }

    /// Tells the progress hook, if any, that the pass at `moves` ended.
    pub(crate) fn report_iteration(&mut self, moves: u8, found: bool) {
        let nodes = self.nodes;
        if let Some(hook) = self.progress.as_mut() {
            hook(&Iteration { moves, found, nodes });
        }
    }

    /// Makes searches give up at `deadline` (None: no limit).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Makes searches give up once the node counter reaches `limit` (None:
    /// no limit). Unlike a deadline this is reproducible, for comparing versions.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// Turns the root ordering of [`Solver::mate_within`] on or off (on by
    /// default): with it, forcing root moves (checks, threats of mate in one
    /// or two) are searched first. The answer never depends on it, only the
    /// time to find it; off is the plain order, kept for comparisons.
    pub fn set_root_ordering(&mut self, on: bool) {
        self.root_threats = if on { 2 } else { 0 };
    }

    /// Positions visited since creation (or the last [`Solver::reset_nodes`]).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the node counter.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.next_poll = 0;
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
        // A threshold rather than `nodes % 2048 == 0`: nodes are also counted
        // outside `tick`, which could step over the multiple.
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + 2048;
            if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                self.aborted = Some(Aborted::Stopped);
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some(Aborted::TimeUp);
            } else if self.nodes >= self.node_limit {
                self.aborted = Some(Aborted::NodeLimit);
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
        let v = self.attack_root(&mut pos.clone(), n.min(MAX_MATE));
        self.finish(v)
    }

    /// Is the side to move mated within `n` moves of the opponent, whatever it plays?
    pub fn mated_within(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.poll();
        let v = self.defend(&mut pos.clone(), n.min(MAX_MATE), 0);
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
        self.real_salt = saved;
        self.salt ^= 0x5bd1_e995_9e37_79b9u64.wrapping_mul(level as u64);
        self.restrict = level;
        let v = self.attack(&mut pos.clone(), n.min(MAX_MATE), 0);
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
        let ci = CheckInfo::new(pos);
        // Only checks can mate: generate just them when possible.
        let only_checks = crate::checks::generate_checks(pos, &ci, list);
        if !only_checks {
            pos.generate_into(bastion_core::GenType::All, list);
        }
        for &m in list.iter() {
            if only_checks || ci.gives_check(pos, m) {
                self.nodes += 1;
                if crate::mate::check_mates(pos, m) {
                    return Some(m);
                }
            }
        }
        None
    }

    /// Attacker to move: is there a mate within `n` (≥ 1) moves?
    pub(crate) fn attack(&mut self, pos: &mut Position, n: u8, ply: usize) -> bool {
        if !self.tick() {
            return false;
        }
        if n == 1 {
            // The last move needs no table: checks are generated directly and
            // tested for mate without playing them, cheaper than a likely
            // cache miss, and the slots are kept for deeper results.
            return self.mate_in_one_at(pos, ply.min(MAX_PLY - 1)).is_some();
        }
        let key = pos.key() ^ self.salt;
        if let Some(known) = self.probe_real(pos, n) {
            return known;
        }
        let tt_move = match self.tt.probe(key, n) {
            Probe::Win => return true,
            Probe::Fail => return false,
            Probe::Unknown(m) => m,
        };
        let us = pos.side_to_move();
        let ply_i = ply.min(MAX_PLY - 1);
        let Some(len) = self.score_attacks(pos, n, ply_i, key, tt_move) else { return true };
        let buf = self.buf(ply_i);
        // Sort once (score and move packed in one integer): most attack
        // nodes fail and try every move, where a lazy selection sort costs
        // a quadratic number of comparisons.
        let order = &mut buf.order[..len];
        for (i, o) in order.iter_mut().enumerate() {
            *o = ((buf.scores[i] as i64) << 16) | buf.moves[i].raw() as i64;
        }
        order.sort_unstable_by(|a, b| b.cmp(a));
        let nth = |i: usize| Move::from_raw(order[i] as u16);
        if len == 0 {
            self.tt.store(key, n, false, Move::NULL);
            return false;
        }
        let mut next = Some(pos.play(nth(0)));
        for i in 0..len {
            let m = nth(i);
            let Some(mut child) = next.take() else { break };
            // Play the following move now and start loading its table slot,
            // so the memory access overlaps this move's search.
            if i + 1 < len {
                let c = pos.play(nth(i + 1));
                self.tt.prefetch(c.key() ^ self.salt);
                next = Some(c);
            }
            if self.defend(&mut child, n - 1, ply + 1) {
                if self.aborted.is_some() {
                    return false;
                }
                self.store_win(pos, key, n, m);
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

    /// Generates the attacker's moves into ply `ply_i`'s buffer with their
    /// ordering scores and returns how many there are, or None when a check
    /// turned out to mate at once (stored as a win at depth 1).
    ///
    /// Checks are played once here to count the replies (fewest first, as
    /// proof-number search would); a check with no reply is an immediate
    /// mate. Far from the leaves, quiet moves are probed for a threat: pass
    /// the defender's turn and look for a mate in one.
    fn score_attacks(&mut self, pos: &mut Position, n: u8, ply_i: usize, key: u64, tt_move: Move) -> Option<usize> {
        let us = pos.side_to_move();
        let buf = self.buf(ply_i);
        let moves = &mut buf.moves;
        let scores = &mut buf.scores;
        moves.clear();
        let ci = CheckInfo::new(pos);
        if self.restrict != 1 || !crate::checks::generate_checks(pos, &ci, moves) {
            pos.generate_into(bastion_core::GenType::All, moves);
        }
        let killers = self.killers[ply_i];
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
                let undo = pos.make(m);
                self.nodes += 1;
                if threats {
                    effort = self.tt.effort(pos.key() ^ self.salt);
                }
                let replies = pos.count_legal_moves() as i32;
                pos.unmake(m, &undo);
                if replies == 0 {
                    self.store_win(pos, key, 1, m);
                    return None;
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
                    let undo = pos.make(m);
                    effort = self.tt.effort(pos.key() ^ self.salt);
                    self.nodes += 1;
                    let threat = !pos.in_check() && self.mate_in_one(&pos.play_null()).is_some();
                    pos.unmake(m, &undo);
                    if threat {
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
        Some(kept)
    }

    /// [`Solver::attack`] at the root of a full-width pass. At the last depth
    /// each wrong root move costs a refutation at full depth (millions of
    /// nodes), so the root order matters most: moves that force (checks) or
    /// threaten a short mate (in one or two, found by passing the
    /// defender's turn) come first, then the rest; within each group the
    /// previous refutation's size ranks, as everywhere far from the leaves.
    fn attack_root(&mut self, pos: &mut Position, n: u8) -> bool {
        if n < 4 || self.restrict != 0 || self.root_threats == 0 {
            return self.attack(pos, n, 0);
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
        let Some(len) = self.score_attacks(pos, n, 0, key, tt_move) else { return true };
        let buf = self.buf(0);
        let mut order: Vec<(bool, bool, i32, Move)> = Vec::with_capacity(len);
        for i in 0..len {
            let (m, s) = (buf.moves[i], buf.scores[i]);
            let child = pos.play(m);
            let forcing = child.in_check() || {
                let mut passed = child.play_null();
                self.nodes += 1;
                self.mate_in_one(&passed).is_some() || (self.root_threats >= 2 && self.attack(&mut passed, 2, 1))
            };
            if self.aborted.is_some() {
                return false;
            }
            order.push((m == tt_move, forcing, s, m));
        }
        order.sort_by_key(|o| std::cmp::Reverse((o.0, o.1, o.2)));
        for &(_, _, _, m) in &order {
            let mut child = pos.play(m);
            let won = self.defend(&mut child, n - 1, 1);
            if self.aborted.is_some() {
                return false;
            }
            if won {
                self.tt.store(key, n, true, m);
                remember(&mut self.killers[0], m);
                self.bump(pos.side_to_move(), m, n);
                return true;
            }
        }
        self.tt.store(key, n, false, Move::NULL);
        false
    }

    /// Defender to move, attacker then has `n` moves (n = 0: the defender
    /// must already be mated): does every defence lose?
    pub(crate) fn defend(&mut self, pos: &mut Position, n: u8, ply: usize) -> bool {
        if n == 0 {
            return pos.in_check() && !pos.has_legal_moves();
        }
        if !self.tick() {
            return false;
        }
        let key = pos.key() ^ self.salt;
        if let Some(known) = self.probe_real(pos, n) {
            return known;
        }
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
            // Make/unmake in place: copying the position and then reading
            // the copy stalls on store forwarding (it was a third of the run time).
            let undo = pos.make(m);
            let won = self.attack(pos, n, ply + 1);
            pos.unmake(m, &undo);
            if !won {
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
            let undo = pos.make(m);
            let won = self.attack(pos, n, ply + 1);
            pos.unmake(m, &undo);
            if !won {
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
        self.store_win(pos, key, n, Move::NULL);
        true
    }

    /// In a restricted pass, what the full-width table already knows: a real
    /// win is a win here too (every answer of a restricted pass that says
    /// "win" is a real win anyway), and a real failure implies the
    /// restricted one. None outside restricted passes or when unknown.
    #[inline]
    fn probe_real(&self, pos: &Position, n: u8) -> Option<bool> {
        if self.restrict == 0 {
            return None;
        }
        match self.tt.probe(pos.key() ^ self.real_salt, n) {
            Probe::Win => Some(true),
            Probe::Fail => Some(false),
            Probe::Unknown(_) => None,
        }
    }

    /// Stores a win under `key`; in a restricted pass also under the
    /// full-width key, since a mate found with fewer attacker moves is a
    /// real mate: the full-width passes and the line extraction reuse it.
    #[inline]
    fn store_win(&mut self, pos: &Position, key: u64, n: u8, m: Move) {
        self.tt.store(key, n, true, m);
        if self.restrict != 0 {
            self.tt.store(pos.key() ^ self.real_salt, n, true, m);
        }
    }
}

/// Puts `m` first in a two-slot move memory (killers, refutations), keeping the previous first.
fn remember(slots: &mut [Move; 2], m: Move) {
    if slots[0] != m {
        slots[1] = slots[0];
        slots[0] = m;
    }
}
