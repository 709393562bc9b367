//! Quiescence search: captures and promotions (SEE- and delta-pruned) until the
//! position is quiet; all evasions when in check.

use super::alphabeta::non_pawn_material;
use super::ordering::{captured_role, cont_index, is_capture, ContIndex, MovePicker, QuietContext};
use super::thread::Worker;
use super::Shared;
use crate::eval;
use crate::score::*;
use crate::tt::Bound;
use bastion_core::{GenType, Move, MoveList, Position, Role};

const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

impl Worker {
    /// `checks`: also try quiet checking moves that do not lose material (first quiescence ply only).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn qsearch<const PV: bool>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.count_node(sh);
        if self.stopped {
            return 0;
        }
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if self.is_draw(pos) {
            return self.draw_value(sh, pos);
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.evaluate(sh, pos, ply) };
        }
        let use_tt = self.params.transposition_table;
        let entry = if use_tt { sh.tt.probe(pos.key()) } else { None };
        let tt_score = entry.map_or(-INFINITE, |e| from_tt(e.score, ply));
        if let Some(e) = entry {
            if !PV
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && tt_score >= beta)
                    || (e.bound == Bound::Upper && tt_score <= alpha))
            {
                return tt_score;
            }
        }
        // Five men or fewer: a side with only king and pawns is checked for stalemate
        // before standing pat (taking the last pawn often stalemates, as in KQKP), every
        // evasion is searched, and recaptures are never delta-pruned (below).
        let few_men = pos.occupied().count() <= 5;
        if few_men && !in_check && !non_pawn_material(pos, pos.side_to_move()) && !pos.has_legal_moves() {
            return 0;
        }
        let mut best;
        let raw_eval;
        let static_eval;
        if in_check {
            best = -INFINITE;
            raw_eval = 0;
            static_eval = 0;
        } else {
            raw_eval = match entry {
                Some(e) if e.eval != 0 => e.eval,
                _ if self.params.lazy_eval && sh.net.is_none() => {
                    eval::evaluate_lazy(pos, &mut self.pawns, alpha, beta, self.params.lazy_margin)
                }
                _ => self.evaluate(sh, pos, ply),
            };
            static_eval = self.corrected_eval(pos, raw_eval);
            best = static_eval;
            if let Some(e) = entry {
                if !is_decisive(tt_score)
                    && ((e.bound == Bound::Lower && tt_score > best) || (e.bound == Bound::Upper && tt_score < best))
                {
                    best = tt_score;
                }
            }
            if best >= beta {
                if entry.is_none() && use_tt {
                    sh.tt.store(pos.key(), Move::NULL, to_tt(best, ply), raw_eval, -1, Bound::Lower, false);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        let tt_move = entry
            .map(|e| e.mv)
            .filter(|&m| !m.is_null() && (in_check || is_capture(pos, m) || m.is_promotion()) && pos.is_legal(m))
            .unwrap_or(Move::NULL);
        let futility_base = static_eval + 160;
        let prev_to = if few_men && ply >= 1 && !self.stack[ply - 1].mv.is_null() {
            Some(self.stack[ply - 1].mv.to())
        } else {
            None
        };
        let mut picker = MovePicker::new(tt_move, !in_check);
        let ctx = QuietContext {
            hist: &self.hist,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            prev: [if ply >= 1 { self.stack[ply - 1].cont } else { ContIndex::NONE }, ContIndex::NONE, ContIndex::NONE],
            use_history: true,
            use_cont: true,
            threats: None,
        };
        // Collected first (the picker borrows the histories the recursion mutates);
        // a stack list avoids a heap allocation per node.
        let mut moves = MoveList::new();
        while let Some(m) = picker.next(pos, &ctx) {
            moves.push(m);
        }
        let first_quiet = moves.len();
        let check_info = pos.check_info();
        if checks && !in_check && self.params.qsearch_checks {
            let mut quiets = MoveList::new();
            pos.generate_into(GenType::Quiet, &mut quiets);
            for &m in quiets.iter() {
                if m != tt_move && pos.gives_check_with(m, &check_info) && pos.see_ge(m, 0) {
                    moves.push(m);
                }
            }
        }
        let mut best_move = Move::NULL;
        let mut legal = 0;
        for (i, m) in moves.iter().copied().enumerate() {
            legal += 1;
            if !in_check && best > -TB_WIN_IN_MAX {
                if let Some(r) = m.promotion_role() {
                    if r != Role::Queen {
                        continue;
                    }
                }
                // Delta pruning: even winning the piece does not reach alpha. Not for a
                // recapture with few men: taking back the last moved piece can change the
                // material class (the king takes an under-promoted rook and a known draw
                // remains), which the piece value does not bound.
                if i < first_quiet
                    && !m.is_promotion()
                    && !pos.gives_check_with(m, &check_info)
                    && Some(m.to()) != prev_to
                {
                    let gain = PIECE_VALUE[captured_role(pos, m).index()];
                    if futility_base + gain <= alpha {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                }
                if !pos.see_ge(m, 0) {
                    continue;
                }
            } else if in_check && best > -TB_WIN_IN_MAX && legal > 3 && !is_capture(pos, m) && !few_men {
                // Late quiet evasions once a defence has been found.
                continue;
            }
            let child = pos.play(m);
            sh.tt.prefetch(child.key());
            self.push(pos, Some(m), &child);
            self.stack[ply].mv = m;
            self.stack[ply].cont = cont_index(pos, m);
            let v = -self.qsearch::<PV>(sh, &child, -beta, -alpha, ply + 1, false);
            self.pop();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.pv[ply][ply] = m;
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        for i in ply + 1..child_len {
                            self.pv[ply][i] = self.pv[ply + 1][i];
                        }
                        self.pv_len[ply] = child_len;
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        if use_tt {
            sh.tt.store(pos.key(), best_move, to_tt(best, ply), raw_eval, 0, bound, PV);
        }
        best
    }
}
