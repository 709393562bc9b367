//! Whole-problem solving: every key, the main line, the defences and, on
//! request, the full solution tree; plus the small in-process API.

use crate::notation::{san_line, series_line};
use crate::search::{Aborted, Solver};
use crate::stipulation::Stipulation;
use bastion_core::{Move, Position};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// Options for [`Solver::solve`].
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Build the full tree: every defence and the shortest reply, down to mate.
    pub all_defences: bool,
    /// Compute the threat (what the attacker does if the defender could pass).
    pub threats: bool,
}

/// One move of a solution tree, with the answers to it.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Attacker moves still needed after this move (0: the goal is reached).
    pub mate_in: u8,
    /// Replies: defences after an attacker move, the chosen reply after a defence.
    pub children: Vec<Node>,
    #[serde(skip)]
    /// The move itself.
    pub mv: Move,
}

/// A key (first move) that fulfils the stipulation.
#[derive(Clone, Debug, Serialize)]
pub struct Key {
    /// The key in UCI notation.
    pub uci: String,
    /// The key in SAN.
    pub san: String,
    /// Length of the solution in attacker moves, key included.
    pub moves: u8,
    /// The main line: best defence each time, shortest reply each time.
    pub main_line: Vec<String>,
    /// The main line as numbered SAN text.
    pub main_line_text: String,
    /// The threat line after the key, when the key is quiet and threats were asked for.
    pub threat: Option<String>,
    /// Each defence with its reply (and, with `all_defences`, the whole tree
    /// below it), longest resistance first.
    pub defences: Vec<Node>,
    #[serde(skip)]
    /// The key move itself.
    pub mv: Move,
    #[serde(skip)]
    /// The main line's moves.
    pub line: Vec<Move>,
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// At least one solution exists; all are listed.
    Solved,
    /// Proved: there is no solution.
    NoSolution,
}

/// Everything found for one problem.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The stipulation solved.
    pub stipulation: String,
    /// The position.
    pub fen: String,
    /// Solved or proved unsolvable.
    pub status: Status,
    /// Keys, shortest first (direct mates and selfmates).
    pub keys: Vec<Key>,
    /// Full solution lines as numbered SAN (helpmates and series-movers).
    pub lines: Vec<String>,
    /// Solution lines as UCI move lists.
    pub lines_uci: Vec<Vec<String>>,
    /// Positions searched.
    pub nodes: u64,
}

/// A shortest mate found for the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateSolution {
    /// Moves of the mating side, the mating move included.
    pub moves: u8,
    /// The principal variation: shortest attack, longest defence, ending in mate.
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Finds the shortest forced mate for the side to move within `max_moves`,
/// giving up (None) when `stop` is raised or no mate exists that short.
/// This is the engine's "mate-sequence optimizer": call it when the main
/// search reports a mate to get the shortest one and its line.
pub fn solve_mate(pos: &Position, max_moves: u8, stop: &AtomicBool) -> Option<MateSolution> {
    let mut s = Solver::new(16);
    s.set_stop(stop);
    let n = s.shortest_mate(pos, max_moves).ok()??;
    let pv = s.main_line(pos, n).ok()?;
    Some(MateSolution { moves: n, pv, nodes: s.nodes() })
}

/// Which search the shared tree code drives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    Direct,
    SelfMate,
}

impl<'s> Solver<'s> {
    /// Shortest mate for the side to move: iterative deepening by moves, so
    /// the first success is the shortest. Each depth first tries a checks-only
    /// search, then checks plus mate threats (cheap; their mates are real),
    /// before the full-width one.
    pub fn shortest_mate(&mut self, pos: &Position, max_moves: u8) -> Result<Option<u8>, Aborted> {
        self.tt.new_generation();
        for n in 1..=max_moves {
            let found = self.checking_mate_within(pos, n)?
                || self.threatening_mate_within(pos, n)?
                || self.mate_within(pos, n)?;
            self.report_iteration(n, found);
            if found {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Is there a mate within `n`? Checks only, then checks and threats, then
    /// full width, all at depth `n` (no claim about shorter mates).
    pub fn mate_within_staged(&mut self, pos: &Position, n: u8) -> Result<bool, Aborted> {
        self.tt.new_generation();
        Ok(self.checking_mate_within(pos, n)? || self.threatening_mate_within(pos, n)? || self.mate_within(pos, n)?)
    }

    /// Shortest length within which the side to move is mated whatever it
    /// plays (`bm #-N` in EPD suites); None if it survives `max_moves`.
    pub fn shortest_mated(&mut self, pos: &Position, max_moves: u8) -> Result<Option<u8>, Aborted> {
        self.tt.new_generation();
        if pos.is_checkmate() {
            return Ok(Some(0));
        }
        for n in 1..=max_moves {
            let found = self.mated_within(pos, n)?;
            self.report_iteration(n, found);
            if found {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    fn a(&mut self, goal: Goal, pos: &Position, k: u8) -> Result<bool, Aborted> {
        self.aborted = None;
        let v = match goal {
            Goal::Direct => self.attack(&mut pos.clone(), k, 0),
            Goal::SelfMate => self.self_attack(pos, k),
        };
        self.finish(v)
    }

    /// Defender to move, attacker keeping `j` moves.
    fn d(&mut self, goal: Goal, pos: &Position, j: u8) -> Result<bool, Aborted> {
        self.aborted = None;
        let v = match goal {
            Goal::Direct => self.defend(&mut pos.clone(), j, 0),
            Goal::SelfMate => self.self_defend(pos, j),
        };
        self.finish(v)
    }

    /// Smallest k ≤ max with the attacker winning from `pos`.
    fn attack_len(&mut self, goal: Goal, pos: &Position, max: u8) -> Result<Option<u8>, Aborted> {
        self.attack_len_from(goal, pos, 1, max)
    }

    /// [`Self::attack_len`] with each length tried told to the progress hook.
    fn reported_attack_len(&mut self, goal: Goal, pos: &Position, max: u8) -> Result<Option<u8>, Aborted> {
        for k in 1..=max {
            let found = self.a(goal, pos, k)?;
            self.report_iteration(k, found);
            if found {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    /// [`Self::attack_len`] when no win shorter than `min` exists.
    fn attack_len_from(&mut self, goal: Goal, pos: &Position, min: u8, max: u8) -> Result<Option<u8>, Aborted> {
        for k in min..=max {
            if self.a(goal, pos, k)? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    /// Smallest k ≤ max such that the attacker's move leading to `child` wins within k.
    fn key_len(&mut self, goal: Goal, child: &Position, max: u8) -> Result<Option<u8>, Aborted> {
        for k in 1..=max {
            if self.d(goal, child, k - 1)? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    /// An attacker move that wins within exactly `k` (k shortest).
    fn best_attack(&mut self, goal: Goal, pos: &Position, k: u8) -> Result<Option<Move>, Aborted> {
        // The move that proved this position won is usually still in the
        // table: try it first, since each wrong move costs a full refutation.
        let first = if goal == Goal::Direct { self.tt.stored_move(pos.key() ^ self.salt) } else { Move::NULL };
        let moves = pos.legal_moves();
        let ordered = moves.iter().filter(|&&m| m == first).chain(moves.iter().filter(|&&m| m != first));
        for &m in ordered {
            if self.d(goal, &pos.play(m), k - 1)? {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// True if the defender's move `m` ends the game in the attacker's favour
    /// at once (only in selfmates: the defender mates).
    fn defence_finishes(goal: Goal, child: &Position) -> bool {
        goal == Goal::SelfMate && child.is_checkmate()
    }

    /// Every defence at `pos` (attacker keeping `j` moves), longest
    /// resistance first, each with the attacker's shortest reply; recursive
    /// when `full`.
    fn defence_nodes(&mut self, goal: Goal, pos: &Position, j: u8, full: bool) -> Result<Vec<Node>, Aborted> {
        let mut out = Vec::new();
        if goal == Goal::Direct && j == 0 {
            return Ok(out);
        }
        for &d in pos.legal_moves().iter() {
            let child = pos.play(d);
            let mut node = Node { uci: pos.to_uci(d), san: pos.san(d), mate_in: 0, children: Vec::new(), mv: d };
            if !Self::defence_finishes(goal, &child) {
                let k = self.attack_len(goal, &child, j)?.unwrap_or(j);
                node.mate_in = k;
                if let Some(r) = self.best_attack(goal, &child, k)? {
                    let after = child.play(r);
                    let mut rn =
                        Node { uci: child.to_uci(r), san: child.san(r), mate_in: k - 1, children: Vec::new(), mv: r };
                    if full {
                        rn.children = self.defence_nodes(goal, &after, k - 1, true)?;
                    }
                    node.children.push(rn);
                }
            }
            out.push(node);
        }
        out.sort_by_key(|n| std::cmp::Reverse(n.mate_in));
        Ok(out)
    }

    /// The main line from `pos` where the attacker wins in exactly `k`:
    /// shortest attack, longest defence.
    fn line(&mut self, goal: Goal, pos: &Position, k: u8) -> Result<Vec<Move>, Aborted> {
        let mut line = Vec::new();
        let mut cur = pos.clone();
        let mut k = k;
        while k > 0 {
            let Some(m) = self.best_attack(goal, &cur, k)? else { break };
            line.push(m);
            cur = cur.play(m);
            k -= 1;
            if goal == Goal::Direct && k == 0 {
                break;
            }
            // Longest defence; in selfmates a defence that mates ends the line.
            let mut best: Option<(Move, u8)> = None;
            for &d in cur.legal_moves().iter() {
                let child = cur.play(d);
                let len = if Self::defence_finishes(goal, &child) {
                    0
                } else {
                    // Only a defence that outlasts the longest so far matters:
                    // one search at that length settles most of them, instead
                    // of finding every defence's exact length from 1 upwards.
                    let floor = best.map_or(0, |(_, b)| b);
                    if floor >= k {
                        break;
                    }
                    if floor > 0 && self.a(goal, &child, floor)? {
                        continue;
                    }
                    self.attack_len_from(goal, &child, floor + 1, k)?.unwrap_or(k)
                };
                if best.is_none_or(|(_, b)| len > b) {
                    best = Some((d, len));
                }
            }
            let Some((d, len)) = best else { break };
            line.push(d);
            cur = cur.play(d);
            k = len;
        }
        Ok(line)
    }

    /// Main line of a direct mate in exactly `n` (n shortest) from `pos`.
    pub fn main_line(&mut self, pos: &Position, n: u8) -> Result<Vec<Move>, Aborted> {
        self.line(Goal::Direct, pos, n)
    }

    /// Solves a problem completely: all keys (or all lines), proved.
    pub fn solve(&mut self, pos: &Position, stip: Stipulation, opts: &SolveOptions) -> Result<Report, Aborted> {
        self.tt.new_generation();
        let start_nodes = self.nodes;
        let mut report = Report {
            stipulation: stip.to_string(),
            fen: pos.fen(),
            status: Status::NoSolution,
            keys: Vec::new(),
            lines: Vec::new(),
            lines_uci: Vec::new(),
            nodes: 0,
        };
        match stip {
            Stipulation::Direct(n) => self.solve_keys(Goal::Direct, pos, n, opts, &mut report)?,
            Stipulation::SelfMate(n) => self.solve_keys(Goal::SelfMate, pos, n, opts, &mut report)?,
            Stipulation::Help { plies } => {
                let mut out = Vec::new();
                self.aborted = None;
                self.help_lines(pos, plies, &mut Vec::new(), &mut out);
                self.finish(())?;
                self.report_iteration(stip.moves(), !out.is_empty());
                for l in out {
                    report.lines.push(san_line(pos, &l));
                    report.lines_uci.push(uci_line(pos, &l, false));
                }
            }
            Stipulation::Series(n) => {
                let mut out = Vec::new();
                self.aborted = None;
                self.series_lines(pos, n, &mut Vec::new(), &mut out);
                self.finish(())?;
                self.report_iteration(n, !out.is_empty());
                for l in out {
                    report.lines.push(series_line(pos, &l));
                    report.lines_uci.push(uci_line(pos, &l, true));
                }
            }
        }
        if !report.keys.is_empty() || !report.lines.is_empty() {
            report.status = Status::Solved;
        }
        report.nodes = self.nodes - start_nodes;
        Ok(report)
    }

    fn solve_keys(
        &mut self,
        goal: Goal,
        pos: &Position,
        n: u8,
        opts: &SolveOptions,
        report: &mut Report,
    ) -> Result<(), Aborted> {
        // Prove the shortest length first: it fills the table for everything after.
        let shortest = match goal {
            Goal::Direct => self.shortest_mate(pos, n)?,
            Goal::SelfMate => self.reported_attack_len(goal, pos, n)?,
        };
        if shortest.is_none() {
            return Ok(());
        }
        for &m in pos.legal_moves().iter() {
            let child = pos.play(m);
            let Some(k) = self.key_len(goal, &child, n)? else { continue };
            let mut main = vec![m];
            let tail_k = k - 1;
            // Main line after this particular key.
            if !(goal == Goal::Direct && tail_k == 0) {
                let mut best: Option<(Move, u8)> = None;
                for &d in child.legal_moves().iter() {
                    let c2 = child.play(d);
                    let len = if Self::defence_finishes(goal, &c2) {
                        0
                    } else {
                        self.attack_len(goal, &c2, tail_k)?.unwrap_or(tail_k)
                    };
                    if best.is_none_or(|(_, b)| len > b) {
                        best = Some((d, len));
                    }
                }
                if let Some((d, len)) = best {
                    main.push(d);
                    if len > 0 {
                        main.extend(self.line(goal, &child.play(d), len)?);
                    }
                }
            }
            let threat = if opts.threats && goal == Goal::Direct && k >= 2 && !child.in_check() {
                let mut null = child.play_null();
                match self.attack_len(goal, &null, k - 1)? {
                    Some(t) => {
                        let line = self.line(goal, &null, t)?;
                        // The pass is not a real move: number the threat as the next move.
                        if null.side_to_move() == bastion_core::Color::White {
                            null.set_clocks(null.halfmove_clock(), null.fullmove_number() + 1);
                        }
                        Some(san_line(&null, &line))
                    }
                    None => None,
                }
            } else {
                None
            };
            let defences = self.defence_nodes(goal, &child, tail_k, opts.all_defences)?;
            report.keys.push(Key {
                uci: pos.to_uci(m),
                san: pos.san(m),
                moves: k,
                main_line: uci_line(pos, &main, false),
                main_line_text: san_line(pos, &main),
                threat,
                defences,
                mv: m,
                line: main,
            });
        }
        report.keys.sort_by_key(|k| k.moves);
        Ok(())
    }
}

/// UCI strings of a line; `series` passes the turn back between moves.
fn uci_line(pos: &Position, moves: &[Move], series: bool) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in moves {
        out.push(p.to_uci(m));
        p = p.play(m);
        if series && !p.is_checkmate() {
            p = p.play_null();
        }
    }
    out
}
