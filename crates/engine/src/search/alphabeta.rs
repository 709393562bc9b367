//! Principal variation search with the usual selectivity; the techniques of the ablation
//! study can be switched off (see [`crate::options::SearchParams`]).

use super::ordering::{self, cont_index, is_capture, ContIndex, MovePicker, QuietContext};
use super::thread::{Worker, NO_EVAL};
use super::{CurrMove, Shared};
use crate::score::*;
use crate::tb::Wdl;
use crate::tt::Bound;
use bastion_core::variant::{self, PlayedMove};
use bastion_core::{Color, Move, MoveList, Position, Role};

/// Key modifier for singular-extension searches (which exclude one move).
const EXCLUSION_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// `c` has a piece other than pawns and its king (null move and pruning need one).
pub(crate) fn non_pawn_material(pos: &Position, c: Color) -> bool {
    (pos.color_bb(c) - pos.role_bb(Role::Pawn) - pos.role_bb(Role::King)).nonempty()
}

/// `c` has no pawns and exactly one piece besides its king, and the opponent has more
/// non-pawn material.
fn lone_piece_defender(pos: &Position, c: Color) -> bool {
    let value = |c: Color| {
        3 * (pos.pieces(c, Role::Knight).count() + pos.pieces(c, Role::Bishop).count())
            + 5 * pos.pieces(c, Role::Rook).count()
            + 9 * pos.pieces(c, Role::Queen).count()
    };
    pos.pieces(c, Role::Pawn).is_empty() && pos.color_bb(c).count() == 2 && value(!c) > value(c)
}

fn low_material(pos: &Position, c: Color) -> bool {
    let minors = pos.pieces(c, Role::Knight).count() + pos.pieces(c, Role::Bishop).count();
    let heavy = pos.pieces(c, Role::Rook).count() * 2 + pos.pieces(c, Role::Queen).count() * 4;
    minors + heavy <= 2
}

impl Worker {
    /// Draw by repetition or the 50-move rule (mate takes precedence over the latter).
    pub(crate) fn is_draw(&self, pos: &Position) -> bool {
        let hm = pos.halfmove_clock() as usize;
        if hm >= 100 && (!pos.in_check() || pos.has_legal_moves()) {
            return true;
        }
        if !self.params.repetition_draws {
            return false;
        }
        if self.params.variant_arrays {
            return variant::repetition_count(&self.played) > 0;
        }
        let n = self.keys.len();
        let key = pos.key();
        let limit = hm.min(n - 1);
        let mut i = 4;
        while i <= limit {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Draw score, shifted by contempt against the root side.
    pub(crate) fn draw_value(&self, sh: &Shared, pos: &Position) -> i32 {
        let c = self.params.contempt;
        if pos.side_to_move() == sh.root_side {
            -c
        } else {
            c
        }
    }

    /// Counts a node, and checks the limits every 512 nodes.
    #[inline]
    pub(crate) fn count_node(&mut self, sh: &Shared) {
        self.nodes += 1;
        if self.nodes & 511 == 0 {
            self.check_limits(sh);
        }
    }

    /// Enters `child`, reached from `pos` by `m` (a null move when `m` is `None`), for
    /// repetition detection.
    pub(crate) fn push(&mut self, pos: &Position, m: Option<Move>, child: &Position) {
        self.keys.push(child.key());
        if self.params.variant_arrays {
            self.played.push(m.map_or_else(|| PlayedMove::pass(pos), |m| PlayedMove::between(pos, m, child)));
        }
    }

    /// Leaves it.
    pub(crate) fn pop(&mut self) {
        self.keys.pop();
        if self.params.variant_arrays {
            self.played.pop();
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn update_histories(
        &mut self,
        pos: &Position,
        ply: usize,
        best: Move,
        depth: i32,
        quiets: &MoveList,
        captures: &MoveList,
    ) {
        let bonus = ordering::stat_bonus(depth);
        let us = pos.side_to_move().index();
        if !is_capture(pos, best) && !best.is_promotion() {
            if self.params.killers && self.killers[ply][0] != best {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = best;
            }
            if ply > 0 {
                if let Some(prev) = self.stack[ply - 1].cont.get() {
                    self.hist.counter[prev / 64][prev % 64] = best;
                }
            }
            self.update_quiet(pos, ply, us, best, bonus);
            for &q in quiets.iter() {
                self.update_quiet(pos, ply, us, q, -bonus);
            }
        } else if let Some(pc) = pos.piece_at(best.from()) {
            let victim = ordering::captured_role(pos, best);
            ordering::update(&mut self.hist.capture[pc.index()][best.to().index()][victim.index()], bonus);
        }
        for &c in captures.iter() {
            if let Some(pc) = pos.piece_at(c.from()) {
                let victim = ordering::captured_role(pos, c);
                ordering::update(&mut self.hist.capture[pc.index()][c.to().index()][victim.index()], -bonus);
            }
        }
    }

    fn update_quiet(&mut self, pos: &Position, ply: usize, us: usize, m: Move, bonus: i32) {
        ordering::update(&mut self.hist.butterfly[us][m.from().index()][m.to().index()], bonus);
        let Some(ci) = cont_index(pos, m).get() else {
            return;
        };
        for back in [1usize, 2, 4] {
            if ply >= back {
                if let Some(p) = self.stack[ply - back].cont.get() {
                    ordering::update(&mut self.hist.cont[p][ci], bonus);
                }
            }
        }
    }

    fn quiet_score(&self, pos: &Position, ply: usize, m: Move) -> i32 {
        let us = pos.side_to_move().index();
        let mut s = self.hist.butterfly[us][m.from().index()][m.to().index()] as i32;
        // The continuation histories one and two plies back count too: the score steers
        // pruning and reductions, not only the order.
        if let Some(ci) = cont_index(pos, m).get() {
            for back in [1usize, 2] {
                if ply >= back {
                    if let Some(p) = self.stack[ply - back].cont.get() {
                        s += self.hist.cont[p][ci] as i32;
                    }
                }
            }
        }
        s
    }

    /// Alpha-beta search of `pos` to `depth` plies; `PV` nodes have an open window.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search<const PV: bool>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(sh, pos, alpha, beta, ply, true);
        }
        let root = ply == 0;
        self.count_node(sh);
        if self.stopped {
            return 0;
        }
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let in_check = pos.in_check();
        let p = self.params.clone();
        let margins = p.margins();
        if !root {
            if self.is_draw(pos) {
                return self.draw_value(sh, pos);
            }
            if ply >= MAX_PLY - 4 {
                return if in_check { 0 } else { self.evaluate(sh, pos, ply) };
            }
            // Mate-distance pruning.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let excluded = self.stack[ply].excluded;
        let key = if excluded.is_null() { pos.key() } else { pos.key() ^ EXCLUSION_KEY ^ excluded.raw() as u64 };
        let entry = if p.transposition_table { sh.tt.probe(key) } else { None };
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            entry.map(|e| e.mv).filter(|&m| !m.is_null() && pos.is_legal(m)).unwrap_or(Move::NULL)
        };
        let tt_score = entry.map_or(-INFINITE, |e| from_tt(e.score, ply));
        // Once on a principal variation, a node keeps the flag in the table.
        let tt_pv = PV || entry.is_some_and(|e| e.pv);
        if let Some(e) = entry {
            if !PV
                && e.depth >= depth
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && tt_score >= beta)
                    || (e.bound == Bound::Upper && tt_score <= alpha))
                && pos.halfmove_clock() < 90
            {
                if tt_score >= beta && !tt_move.is_null() && !is_capture(pos, tt_move) && self.params.killers {
                    let bonus = ordering::stat_bonus(depth);
                    let us = pos.side_to_move().index();
                    self.update_quiet(pos, ply, us, tt_move, bonus);
                }
                return tt_score;
            }
        }

        // Tablebase probe: exact mate distances where the tables have them, else
        // WDL right after captures/pawn moves (where it is exact), as far as the
        // Syzygy options allow. A WDL bound that does not cut the window still holds
        // on a PV node, as in Stockfish: a table win is the node's floor, a table
        // loss its ceiling, so a searched material score cannot replace the table's.
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if let Some(tb) = sh.tb {
            if !root && excluded.is_null() && pos.castling().is_empty() && pos.occupied().count() <= tb.max_pieces() {
                if let Some(d) = tb.probe_dtm(pos) {
                    sh.tbhits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let plies = ply + d.unsigned_abs() as usize;
                    let v = match d.signum() {
                        0 => 0,
                        1 if plies < MAX_PLY => mate_in(plies),
                        1 => TB_WIN - ply as i32,
                        _ if plies < MAX_PLY => mated_in(plies),
                        _ => -TB_WIN + ply as i32,
                    };
                    return v;
                }
            }
            if !root
                && excluded.is_null()
                && pos.halfmove_clock() == 0
                && pos.castling().is_empty()
                && sh.tb_rule.probes(pos.occupied().count(), depth)
            {
                if let Some(wdl) = tb.probe_wdl(pos) {
                    sh.tbhits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let wdl = if sh.tb_rule.fifty_move_rule { wdl } else { wdl.ignoring_fifty_move_rule() };
                    let (v, bound) = match wdl {
                        Wdl::Win => (TB_WIN - ply as i32, Bound::Lower),
                        Wdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
                        Wdl::CursedWin => (1, Bound::Exact),
                        Wdl::BlessedLoss => (-1, Bound::Exact),
                        Wdl::Draw => (0, Bound::Exact),
                    };
                    if bound == Bound::Exact
                        || (bound == Bound::Lower && v >= beta)
                        || (bound == Bound::Upper && v <= alpha)
                    {
                        if p.transposition_table {
                            sh.tt.store(
                                key,
                                Move::NULL,
                                to_tt(v, ply),
                                NO_EVAL.max(-32000),
                                (depth + 6).min(120),
                                bound,
                                PV,
                            );
                        }
                        return v;
                    }
                    if PV {
                        if bound == Bound::Lower {
                            tb_floor = v;
                            alpha = alpha.max(v);
                        } else {
                            tb_ceiling = v;
                        }
                    }
                }
            }
        }

        // Static evaluation.
        let raw_eval;
        let static_eval;
        let mut eval_est;
        if in_check {
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            eval_est = NO_EVAL;
        } else {
            raw_eval = match entry {
                Some(e) if e.eval.abs() < INFINITE && e.eval != 0 => e.eval,
                _ => self.evaluate(sh, pos, ply),
            };
            static_eval = self.corrected_eval(pos, raw_eval);
            eval_est = static_eval;
            if let Some(e) = entry {
                let tighter = (e.bound == Bound::Lower && tt_score > eval_est)
                    || (e.bound == Bound::Upper && tt_score < eval_est)
                    || e.bound == Bound::Exact;
                if tighter && !is_decisive(tt_score) {
                    eval_est = tt_score;
                }
            }
        }
        self.stack[ply].static_eval = static_eval;
        // Hindsight: the parent reduced the move that led here. If the mover is not worse
        // for it by static evaluation, the reduction was too optimistic and one ply is
        // given back; if both evaluations favour the mover clearly, one more is taken.
        if !root && !in_check && excluded.is_null() {
            let prior_reduction = self.stack[ply - 1].reduction;
            let parent_eval = self.stack[ply - 1].static_eval;
            if parent_eval != NO_EVAL {
                if prior_reduction >= 3 && static_eval <= -parent_eval {
                    depth += 1;
                } else if prior_reduction >= 2 && depth >= 2 && static_eval + parent_eval > 175 {
                    depth -= 1;
                }
            }
        }
        let improving = ply < 2
            || (!in_check
                && self.stack[ply - 2].static_eval != NO_EVAL
                && static_eval > self.stack[ply - 2].static_eval);
        self.killers[ply + 2] = [Move::NULL; 2];
        self.stack[ply + 1].excluded = Move::NULL;
        let us = pos.side_to_move();

        if !PV && !in_check && excluded.is_null() {
            // Razoring.
            if p.razoring && depth <= 3 && eval_est + margins.razor_base + margins.razor_mul * depth < alpha {
                let v = self.qsearch::<false>(sh, pos, alpha - 1, alpha, ply, true);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility pruning.
            if p.reverse_futility
                && depth <= 6
                && eval_est - margins.rfp_mul * (depth - improving as i32) >= beta
                && eval_est < TB_WIN_IN_MAX
                && beta > -TB_WIN_IN_MAX
            {
                return (eval_est + beta) / 2;
            }
            // Null move, with Adaptive Depth Control raising R below late PV siblings.
            if p.null_move
                && depth >= 3
                && eval_est >= beta
                && static_eval >= beta - 20 * depth + margins.nmp_margin
                && ply >= self.nmp_min_ply
                && ply > 0
                && !self.stack[ply - 1].mv.is_null()
                && non_pawn_material(pos, us)
                && beta > -TB_WIN_IN_MAX
                // Few legal moves smell of zugzwang, where passing is no lower bound.
                && pos.count_legal_moves() > 3
            {
                let mut r = if p.null_move_reduction > 0 {
                    p.null_move_reduction
                } else {
                    3 + depth / 4 + ((eval_est - beta) / margins.nmp_eval_div).min(3)
                };
                if p.adaptive_depth_control && self.stack[ply].late_pv_subtree {
                    r += 1;
                }
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].cont = ContIndex::NONE;
                self.stack[ply + 1].late_pv_subtree = self.stack[ply].late_pv_subtree;
                let child = pos.play_null();
                self.push(pos, None, &child);
                let v = -self.search::<false>(sh, &child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= TB_WIN_IN_MAX { beta } else { v };
                    let verify = low_material(pos, us) || depth >= 14;
                    if !verify || self.nmp_min_ply > 0 {
                        return v;
                    }
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(0) as usize;
                    let w = self.search::<false>(sh, pos, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }
        // Internal iterative reduction: no hash move means this node was never searched well.
        if p.iir && depth >= 4 && tt_move.is_null() && !root && excluded.is_null() {
            depth -= 1;
        }

        // Enhanced transposition cutoff: a child already known to refute us.
        if p.enhanced_tt_cutoff && p.transposition_table && !PV && depth > 2 && excluded.is_null() && !root {
            for m in pos.legal_moves().iter().copied() {
                let child = pos.play(m);
                if let Some(e) = sh.tt.probe(child.key()) {
                    let v = -from_tt(e.score, ply + 1);
                    if e.depth >= depth - 1
                        && matches!(e.bound, Bound::Upper | Bound::Exact)
                        && v >= beta
                        && !is_decisive(v)
                    {
                        return v;
                    }
                }
            }
        }

        let prev_cont = [
            if ply >= 1 { self.stack[ply - 1].cont } else { ContIndex::NONE },
            if ply >= 2 { self.stack[ply - 2].cont } else { ContIndex::NONE },
            if ply >= 4 { self.stack[ply - 4].cont } else { ContIndex::NONE },
        ];
        let counter = match prev_cont[0].get() {
            Some(prev) if p.counter_moves => self.hist.counter[prev / 64][prev % 64],
            _ => Move::NULL,
        };
        let killers = if p.killers { self.killers[ply] } else { [Move::NULL; 2] };
        let mut picker = MovePicker::new(if root { Move::NULL } else { tt_move }, false);
        let root_list: Vec<Move> =
            if root { self.root_moves[self.pv_idx..].iter().map(|r| r.mv).collect() } else { Vec::new() };
        let mut root_i = 0;

        let mut best = tb_floor;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let tt_capture = !tt_move.is_null() && is_capture(pos, tt_move);
        let late_pv_subtree = self.stack[ply].late_pv_subtree;
        let check_info = pos.check_info();
        // With four men (KRKB, KRKN, KQKR, KBPK, KQKP, ...) one quiet move is often the
        // only defence or the only way to make progress, and move-count and history
        // pruning turn such endings into false wins or false draws; with five, the same
        // holds for a lone piece defending against more material. These trees are small:
        // all quiet moves are searched there.
        let men = pos.occupied().count();
        let full_width = men <= 4 || (men == 5 && lone_piece_defender(pos, us));

        loop {
            let m = if root {
                if root_i >= root_list.len() {
                    break;
                }
                root_i += 1;
                root_list[root_i - 1]
            } else {
                let ctx = QuietContext {
                    hist: &self.hist,
                    killers,
                    counter,
                    prev: prev_cont,
                    use_history: p.history,
                    use_cont: p.counter_moves,
                    threats: Some(&check_info),
                };
                match picker.next(pos, &ctx) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            if root && self.id == 0 {
                if let Some(report) = sh.currmove.filter(|_| sh.time.elapsed() >= sh.progress_after) {
                    report(&CurrMove { depth: self.root_depth, mv: m, number: move_count + self.pv_idx });
                }
            }
            let capture = is_capture(pos, m);
            let quiet = !capture && !m.is_promotion();
            let gives_check = pos.gives_check_with(m, &check_info);
            let hist = if quiet { self.quiet_score(pos, ply, m) } else { 0 };
            let lmr_base = self.lmr[(depth as usize).min(63)][move_count.min(63)];

            // Shallow-depth pruning.
            if !root && best > -TB_WIN_IN_MAX && non_pawn_material(pos, us) {
                let lmr_depth = (depth - 1 - lmr_base + hist / 8000).max(0);
                if quiet && !gives_check {
                    let lmp_limit = (3 + depth * depth) / (2 - improving as i32);
                    if p.lmp && depth <= 8 && move_count as i32 >= lmp_limit && !full_width {
                        picker.skip_quiets();
                        continue;
                    }
                    if p.futility
                        && !in_check
                        && lmr_depth <= 7
                        && eval_est + margins.futility_base + margins.futility_mul * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if p.history && lmr_depth <= 3 && hist < -margins.hist_prune * depth && !full_width {
                        continue;
                    }
                    if p.see_pruning && lmr_depth <= 7 && !pos.see_ge(m, -margins.see_quiet * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if p.see_pruning && depth <= 7 && !gives_check && !pos.see_ge(m, -margins.see_capture * depth) {
                    continue;
                }
            }

            // Extensions.
            let mut ext = 0;
            if ply < 2 * self.root_depth as usize {
                if p.singular_extension
                    && !root
                    && m == tt_move
                    && excluded.is_null()
                    && depth >= 7
                    && entry.is_some_and(|e| e.depth >= depth - 3 && e.bound != Bound::Upper)
                    && !is_decisive(tt_score)
                {
                    let sbeta = tt_score - 2 * depth;
                    let sdepth = (depth - 1) / 2;
                    self.stack[ply].excluded = m;
                    let v = self.search::<false>(sh, pos, sbeta - 1, sbeta, sdepth, ply, cut_node);
                    self.stack[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < sbeta {
                        ext = 1;
                        if !PV && v < sbeta - margins.singular_double {
                            ext = 2;
                        }
                    } else if sbeta >= beta {
                        return sbeta;
                    } else if tt_score >= beta {
                        ext = -1;
                    }
                } else {
                    let check_ext = p.check_extension && gives_check;
                    let recapture = PV
                        && capture
                        && ply > 0
                        && self.stack[ply - 1].captured
                        && m.to() == self.stack[ply - 1].mv.to();
                    if check_ext || recapture {
                        ext = 1;
                    }
                }
            }

            let nodes_before = self.nodes;
            let child = pos.play(m);
            sh.tt.prefetch(child.key());
            self.push(pos, Some(m), &child);
            self.stack[ply].mv = m;
            self.stack[ply].cont = cont_index(pos, m);
            self.stack[ply].captured = capture;
            // Adaptive Depth Control: a late regular (quiet, non-checking, non-evasion)
            // sibling at a PV node marks its subtree.
            self.stack[ply + 1].late_pv_subtree = late_pv_subtree
                || (p.adaptive_depth_control
                    && PV
                    && quiet
                    && !gives_check
                    && !in_check
                    && move_count > p.adaptive_depth_threshold);
            let new_depth = depth - 1 + ext;
            let mut v;
            if p.lmr && depth >= 2 && move_count > 1 + root as usize && (quiet || !PV || !tt_capture) {
                let mut r = lmr_base;
                r += !PV as i32;
                r += cut_node as i32;
                r += !improving as i32;
                r -= (m == killers[0] || m == killers[1] || m == counter) as i32;
                r -= gives_check as i32;
                r -= (tt_pv && !PV) as i32;
                if quiet {
                    r -= hist / margins.lmr_hist_div;
                } else {
                    r /= 2;
                }
                if tt_capture && quiet {
                    r += 1;
                }
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                self.stack[ply].reduction = new_depth - d;
                v = -self.search::<false>(sh, &child, -alpha - 1, -alpha, d, ply + 1, true);
                self.stack[ply].reduction = 0;
                if v > alpha && d < new_depth {
                    v = -self.search::<false>(sh, &child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || move_count > 1 {
                v = -self.search::<false>(sh, &child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                v = alpha + 1; // forces the full-window search below
            }
            if PV && (move_count == 1 || (v > alpha && (root || v < beta))) {
                v = -self.search::<true>(sh, &child, -beta, -alpha, new_depth, ply + 1, false);
            }
            self.pop();
            if self.stopped {
                return 0;
            }

            if root {
                let pv_tail: Vec<Move> = if self.pv_len[ply + 1] > ply + 1 {
                    self.pv[ply + 1][ply + 1..self.pv_len[ply + 1]].to_vec()
                } else {
                    Vec::new()
                };
                let seld = self.seldepth;
                let spent = self.nodes - nodes_before;
                if let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == m) {
                    rm.nodes += spent;
                    if move_count == 1 || v > alpha {
                        rm.score = v;
                        rm.seldepth = seld;
                        rm.pv = std::iter::once(m).chain(pv_tail).collect();
                    } else {
                        rm.score = -INFINITE;
                    }
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move {
                if quiet && quiets.len() < 64 {
                    quiets.push(m);
                } else if capture && captures.len() < 32 {
                    captures.push(m);
                }
            }
        }

        if move_count == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                0
            };
        }
        if best >= beta && !best_move.is_null() {
            self.update_histories(pos, ply, best_move, depth, &quiets, &captures);
        }
        best = best.min(tb_ceiling);
        if excluded.is_null() && !(root && self.pv_idx > 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if PV && !best_move.is_null() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            // The table keeps the raw evaluation: corrections change as the search learns.
            let se = if raw_eval == NO_EVAL { 0 } else { raw_eval };
            if p.transposition_table {
                sh.tt.store(key, best_move, to_tt(best, ply), se, depth, bound, tt_pv);
            }
            let quiet_best = best_move.is_null() || (!is_capture(pos, best_move) && !best_move.is_promotion());
            // Only a bound that says more than the static evaluation corrects it.
            let informative = match bound {
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                Bound::Exact | Bound::None => true,
            };
            if !in_check && quiet_best && !is_decisive(best) && informative {
                self.corr.update(pos, depth, best - static_eval);
            }
        }
        best
    }
}
