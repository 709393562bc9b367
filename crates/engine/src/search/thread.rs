//! One search thread: its stacks and histories, iterative deepening with
//! aspiration windows and MultiPV, and Lazy SMP helper scheduling.

use super::correction::CorrectionHistory;
use super::ordering::{ContIndex, Histories};
use super::{PvLine, ScoreBound, SearchInfo, SearchResult, Shared};
use crate::eval::PawnCache;
use crate::nnue::AccumulatorStack;
use crate::options::{SearchParams, TimeConstants};
use crate::score::*;
use bastion_core::variant::PlayedMove;
use bastion_core::{Move, Position};
use std::sync::atomic::Ordering;

/// Per-ply search state.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    /// Corrected static evaluation ([`NO_EVAL`] in check).
    pub static_eval: i32,
    /// The move searched from this ply ([`Move::NULL`] for a null move).
    pub mv: Move,
    /// Continuation-history index of that move.
    pub cont: ContIndex,
    /// The move a singular-extension search leaves out here.
    pub excluded: Move,
    /// Adaptive Depth Control: this subtree hangs below a late quiet PV sibling.
    pub late_pv_subtree: bool,
    /// Whether that move captured.
    pub captured: bool,
    /// Plies by which late-move reduction cut the move searched from here (0 when none).
    pub reduction: i32,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: NO_EVAL,
            mv: Move::NULL,
            cont: ContIndex::NONE,
            excluded: Move::NULL,
            late_pv_subtree: false,
            captured: false,
            reduction: 0,
        }
    }
}

/// "No static evaluation" (in check).
pub(crate) const NO_EVAL: i32 = -INFINITE - 1;

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the current iteration (`-INFINITE` until searched with an exact result).
    pub score: i32,
    /// Score of the last iteration that searched it.
    pub prev_score: i32,
    /// Its principal variation, the move first.
    pub pv: Vec<Move>,
    /// Selective depth reached below it.
    pub seldepth: usize,
    /// Nodes this thread spent below this move since the search started.
    pub nodes: u64,
    /// The value reported for the move while the search finds no mate, when Syzygy
    /// ranked the root.
    pub tb_score: Option<i32>,
}

/// Nodes per second after `ms` milliseconds: 0 before the first millisecond, where no
/// rate can be measured.
pub(crate) fn nodes_per_second(nodes: u64, ms: u64) -> u64 {
    nodes.saturating_mul(1000).checked_div(ms).unwrap_or(0)
}

/// A search thread.
pub(crate) struct Worker {
    /// Thread index; 0 is the main thread, which reports and manages time.
    pub id: usize,
    /// Pawn-structure cache of the hand-written evaluation.
    pub pawns: PawnCache,
    /// Move-ordering statistics.
    pub hist: Histories,
    /// Static-evaluation corrections.
    pub corr: CorrectionHistory,
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
    /// Per-ply state.
    pub stack: Vec<Frame>,
    /// Triangular principal-variation table.
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    /// End of the line stored at each ply of `pv`.
    pub pv_len: [usize; MAX_PLY + 2],
    /// Keys of the game's and the search's positions, for repetitions.
    pub keys: Vec<u64>,
    /// The moves from the root, for repetitions by variant arrays (`VariantArrays`).
    pub played: Vec<PlayedMove>,
    /// The root position.
    pub root: Position,
    /// The root moves, best first.
    pub root_moves: Vec<RootMove>,
    /// The MultiPV line being searched.
    pub pv_idx: usize,
    /// Depth of the current iteration.
    pub root_depth: i32,
    /// Deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Nodes this thread searched.
    pub nodes: u64,
    /// Set once the search must unwind.
    pub stopped: bool,
    /// No null move before this ply (during a null-move verification search).
    pub nmp_min_ply: usize,
    /// The search switches of this search.
    pub params: SearchParams,
    /// Late-move reduction by `[depth][move number]`.
    pub lmr: Box<[[i32; 64]; 64]>,
    /// Network accumulators along the current line.
    pub nnue: AccumulatorStack,
}

impl Worker {
    /// A thread with empty tables.
    pub fn new(id: usize) -> Worker {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.3) as i32;
            }
        }
        Worker {
            id,
            pawns: PawnCache::new(),
            hist: Histories::default(),
            corr: CorrectionHistory::default(),
            killers: vec![[Move::NULL; 2]; MAX_PLY + 8],
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 2],
            keys: Vec::new(),
            played: Vec::new(),
            root: Position::startpos(),
            root_moves: Vec::new(),
            pv_idx: 0,
            root_depth: 0,
            seldepth: 0,
            nodes: 0,
            stopped: false,
            nmp_min_ply: 0,
            params: SearchParams::default(),
            lmr,
            nnue: AccumulatorStack::new(MAX_PLY + 8),
        }
    }

    /// Static evaluation for the side to move at `ply`: the network's when one is loaded.
    #[inline]
    pub fn evaluate(&mut self, sh: &Shared, pos: &Position, ply: usize) -> i32 {
        let stack = &mut self.nnue;
        let v = crate::eval::evaluate_by(pos, sh.net, &mut self.pawns, |net| stack.evaluate(net, pos, ply));
        if self.params.mop_up {
            v
        } else {
            v - crate::eval::mop_up_included(pos, sh.net.is_some())
        }
    }

    /// `raw` corrected by what searches found in positions with the same pawns, the same
    /// material and the same non-pawn pieces.
    #[inline]
    pub fn corrected_eval(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.corr.correction(pos)).clamp(-TB_WIN_IN_MAX + 1, TB_WIN_IN_MAX - 1)
    }

    /// Forgets what earlier searches learned (new game).
    pub fn clear(&mut self) {
        self.hist = Histories::default();
        self.corr = CorrectionHistory::default();
        self.pawns = PawnCache::new();
        self.killers.iter_mut().for_each(|k| *k = [Move::NULL; 2]);
    }

    /// Prepares a search of `pos` after the game positions `history`: stacks, root moves
    /// (filtered by `searchmoves` and the tablebases).
    pub fn start_search(&mut self, pos: &Position, history: &[u64], sh: &Shared) {
        self.root = pos.clone();
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.keys.push(pos.key());
        self.played.clear();
        self.nodes = 0;
        self.stopped = false;
        self.nmp_min_ply = 0;
        self.params = sh.opts.params.clone();
        self.seldepth = 0;
        self.stack.iter_mut().for_each(|f| *f = Frame::default());
        self.killers.iter_mut().for_each(|k| *k = [Move::NULL; 2]);
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if !sh.limits.searchmoves.is_empty() {
            let filtered: Vec<Move> = moves.iter().copied().filter(|m| sh.limits.searchmoves.contains(m)).collect();
            if !filtered.is_empty() {
                moves = filtered;
            }
        }
        // Tablebases at the root: only the moves that keep the best result are searched.
        if let Some(ranking) = &sh.tb_root {
            let keep = ranking.best_of(&moves);
            if !keep.is_empty() {
                moves = keep;
            }
        }
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
                tb_score: sh.tb_root.as_ref().and_then(|r| r.score_of(mv)),
            })
            .collect();
    }

    fn publish_nodes(&self, sh: &Shared) {
        sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Called every few hundred nodes: sets `stopped` on stop, abort, time or node limit.
    pub fn check_limits(&mut self, sh: &Shared) {
        self.publish_nodes(sh);
        if sh.should_abort() {
            self.stopped = true;
            return;
        }
        if self.id == 0 {
            if let Some(n) = sh.limits.nodes {
                if sh.total_nodes() >= n {
                    self.stopped = true;
                }
            }
            if !sh.control.pondering.load(Ordering::Relaxed) && sh.time.hard_expired() {
                self.stopped = true;
            }
            if sh.main_phase_over() {
                self.stopped = true;
            }
            if self.stopped {
                sh.abort.store(true, Ordering::SeqCst);
            }
        }
    }

    /// The value reported for root move `i` whose search gave `v`: the tables' value
    /// where Syzygy ranked the root and the search found no mate (Stockfish does the same).
    fn shown(&self, i: usize, v: i32) -> i32 {
        match self.root_moves[i].tb_score {
            Some(tb) if v > -INFINITE && !is_mate(v) => tb,
            _ => v,
        }
    }

    fn line(&self, i: usize, bound: ScoreBound) -> PvLine {
        let rm = &self.root_moves[i];
        let value = self.shown(i, if rm.score == -INFINITE { rm.prev_score } else { rm.score });
        PvLine { multipv: i + 1, score: Score::from_value(value), value, bound, pv: rm.pv.clone() }
    }

    fn report(&self, sh: &Shared, depth: i32, line: PvLine, info: &mut dyn FnMut(&SearchInfo)) {
        self.publish_nodes(sh);
        let nodes = sh.total_nodes();
        let ms = sh.time.elapsed().as_millis() as u64;
        info(&SearchInfo {
            depth,
            seldepth: self.seldepth.max(self.root_moves[line.multipv - 1].seldepth) as i32,
            line,
            nodes,
            nps: nodes_per_second(nodes, ms),
            hashfull: sh.tt.hashfull(),
            tbhits: sh.tbhits.load(Ordering::Relaxed),
            time_ms: ms,
        });
    }

    /// Reports all `multipv` lines after an aspiration failure of line `pv_idx` (`failed`,
    /// with its bound). The lines before it are this iteration's; those after it keep their
    /// last values, at the previous depth unless this iteration already scored them.
    /// Reporting the failed line alone would leave the GUI showing its move a second time
    /// under the index where the move stood before (Stockfish reports all lines too).
    fn report_failure(
        &self,
        sh: &Shared,
        depth: i32,
        multipv: usize,
        failed: PvLine,
        info: &mut dyn FnMut(&SearchInfo),
    ) {
        let pv_idx = failed.multipv - 1;
        for i in 0..multipv {
            if i == pv_idx {
                self.report(sh, depth, failed.clone(), info);
                continue;
            }
            let mut line = self.line(i, ScoreBound::Exact);
            let updated = self.root_moves[i].score != -INFINITE;
            if line.value == -INFINITE {
                // Never scored (Stockfish shows 0 too): no value is known for it yet.
                line.value = 0;
                line.score = Score::Cp(0);
            }
            let d = if updated { depth } else { (depth - 1).max(1) };
            self.report(sh, d, line, info);
        }
    }

    fn sort_root(&mut self, from: usize, to: usize) {
        self.root_moves[from..to].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// Iterative deepening. The main thread (id 0) reports and decides when to stop.
    pub fn iterate(&mut self, sh: &Shared, info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let mut result = SearchResult {
            best: self.root_moves.first().map(|r| r.mv),
            ponder: None,
            score: Score::Cp(0),
            value: 0,
            pv: self.root_moves.first().map(|r| vec![r.mv]).unwrap_or_default(),
            lines: Vec::new(),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: 0,
        };
        if self.root_moves.is_empty() {
            let v = if self.root.in_check() { mated_in(0) } else { 0 };
            result.score = Score::from_value(v);
            result.value = v;
            return result;
        }
        let multipv = sh.opts.multipv.clamp(1, self.root_moves.len());
        let max_depth = sh.limits.depth.unwrap_or(MAX_PLY as i32 - 8).clamp(1, MAX_PLY as i32 - 8);
        let main = self.id == 0;
        // Lazy SMP: helpers skip some depths so threads spread over different depths. A
        // cluster rank's threads count on from the threads of the ranks before it, so that a
        // rank's main thread, too, searches as a helper would.
        let helper = self.id + sh.opts.cluster_rank * sh.opts.threads.max(1);
        let mut prev_best = Move::NULL;
        let mut prev_value = 0;
        let mut instability = 0.0f64;
        for depth in 1..=max_depth {
            if helper != 0 {
                const SKIP_SIZE: [i32; 8] = [1, 1, 2, 2, 2, 2, 3, 3];
                const SKIP_PHASE: [i32; 8] = [0, 1, 0, 1, 2, 3, 0, 1];
                let i = (helper - 1) % 8;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 && depth > 1 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                if rm.score != -INFINITE {
                    rm.prev_score = rm.score;
                }
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.params.margins().asp_delta + prev * prev / 12_000;
                let (mut alpha, mut beta) =
                    if depth >= 4 && self.params.aspiration && !is_decisive(prev) && prev > -INFINITE {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let v = self.search::<true>(sh, &self.root.clone(), alpha, beta, depth, 0, false);
                    self.sort_root(pv_idx, self.root_moves.len());
                    if self.stopped {
                        break;
                    }
                    let bound = if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        ScoreBound::Upper
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        ScoreBound::Lower
                    } else {
                        break;
                    };
                    if main && sh.time.elapsed() >= sh.progress_after {
                        let mut line = self.line(pv_idx, bound);
                        line.value = v;
                        line.score = Score::from_value(v);
                        self.report_failure(sh, depth, multipv, line, info);
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                self.sort_root(0, pv_idx + 1);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // A move that beat the previous best in the unfinished iteration is trusted.
                if main && self.root_moves[0].score > -INFINITE && depth > 1 {
                    result.best = Some(self.root_moves[0].mv);
                    result.pv = self.root_moves[0].pv.clone();
                    if self.root_moves[0].mv != prev_best {
                        result.value = self.shown(0, self.root_moves[0].score);
                        result.score = Score::from_value(result.value);
                    }
                }
                break;
            }
            if !main {
                continue;
            }
            let lines: Vec<PvLine> = (0..multipv).map(|i| self.line(i, ScoreBound::Exact)).collect();
            for l in &lines {
                self.report(sh, depth, l.clone(), info);
            }
            let best = &self.root_moves[0];
            result.best = Some(best.mv);
            result.pv = best.pv.clone();
            result.value = self.shown(0, best.score);
            result.score = Score::from_value(result.value);
            result.depth = depth;
            result.seldepth = result.seldepth.max(self.seldepth as i32);
            result.lines = lines;
            let tc = self.params.time();
            let pct = TimeConstants::pct;
            if best.mv != prev_best && depth > 1 {
                instability += pct(tc.instability);
            }
            instability *= pct(tc.instability_decay);
            let falling =
                ((prev_value - best.score) as f64 / f64::from(tc.falling_div.max(1))).clamp(0.0, pct(tc.falling_max));
            prev_best = best.mv;
            prev_value = best.score;
            if let Some(plan) = sh.fortress {
                plan.observe(depth, best.score);
            }

            // Stop conditions checked between iterations.
            if let Some(m) = sh.limits.mate {
                if let Score::Mate(n) = result.score {
                    if n > 0 && n <= m {
                        break;
                    }
                }
            }
            if let Some(n) = sh.limits.nodes {
                if sh.total_nodes() >= n {
                    break;
                }
            }
            if sh.main_phase_over() {
                break;
            }
            if !sh.control.pondering.load(Ordering::Relaxed) {
                // A best move that takes most of the effort has no serious rival: stop sooner;
                // one that takes little is contested: think longer.
                let effort = best.nodes as f64 / self.nodes.max(1) as f64;
                let contested = if depth >= 8 {
                    (pct(tc.effort_base) + pct(tc.effort_slope) * (1.0 - effort)).clamp(0.6, 1.7)
                } else {
                    1.0
                };
                let factor = (1.0 + instability)
                    * (1.0 + falling)
                    * contested
                    * if self.root_moves.len() == 1 { 0.1 } else { 1.0 };
                // The fortress phase, once armed, takes its share of the time after this search.
                let factor = match sh.fortress {
                    Some(plan) => factor * plan.main_share(),
                    None => factor,
                };
                if sh.time.soft_expired(pct(tc.stop_share) * factor) {
                    break;
                }
                // A forced mate found with a few plies to spare: no need to go on in timed games.
                if sh.time.soft.is_some()
                    && !sh.time.fixed
                    && is_mate(best.score)
                    && depth > 2 * (MATE - best.score.abs()) + 6
                {
                    break;
                }
            }
        }
        if main {
            // Ponder move: the second PV move, else the hash move after the best move.
            if let Some(b) = result.best {
                if result.pv.first() != Some(&b) {
                    result.pv = vec![b];
                }
                result.ponder = result.pv.get(1).copied().or_else(|| {
                    let child = self.root.play(b);
                    sh.tt.probe(child.key()).map(|e| e.mv).filter(|&m| !m.is_null() && child.is_legal(m))
                });
            }
            if result.lines.is_empty() {
                result.lines = vec![PvLine {
                    multipv: 1,
                    score: result.score,
                    value: result.value,
                    bound: ScoreBound::Exact,
                    pv: result.pv.clone(),
                }];
            }
        }
        self.publish_nodes(sh);
        result
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nodes_per_second_is_zero_without_elapsed_time() {
        assert_eq!(super::nodes_per_second(12_345, 0), 0);
        assert_eq!(super::nodes_per_second(12_345, 1), 12_345_000);
        assert_eq!(super::nodes_per_second(3_000, 1_500), 2_000);
    }
}
