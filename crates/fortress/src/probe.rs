//! The progress test: evidence that does not depend on the level of the
//! engine's evaluation.
//!
//! A fortress is a position in which the side ahead cannot force an
//! irreversible change (a capture, a pawn move, a promotion) that keeps its
//! edge. Engines that respect the fifty-move rule can be asked exactly that:
//! the position is searched with the halfmove clock advanced so that only `k`
//! moves remain before the draw. If the side ahead can force such a change
//! within `k` moves the clock resets and its score stays where it was; if it
//! cannot, every line ends in the fifty-move draw and the score collapses to
//! 0.00, however large the material edge the evaluation sees.
//!
//! When the edge holds, the principal variation's first irreversible move is
//! played and the test repeated from there (a *stage*): a pawn push that only
//! postpones the collapse is no progress, and the test then collapses one or
//! two stages later.

use bastion_core::{Color, Move, Position};
use serde::{Deserialize, Serialize};

use crate::classify::{Basis, Evidence, Side, Thresholds, Verdict};
use crate::score::Eval;

/// Options of the progress test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeConfig {
    /// Run the test at all.
    pub enabled: bool,
    /// The numbers of moves `k` left before the fifty-move draw, ascending.
    pub moves: Vec<u32>,
    /// Plies searched beyond the `2k` plies to the draw, so that the
    /// engine's reductions still reach it (Bastion's engine needs about 10:
    /// with 6, a defender accepts a rook sacrifice because the declining
    /// lines were reduced below the draw).
    pub extra_depth: u32,
    /// How many irreversible changes are followed at the largest `k`.
    pub stages: u32,
    /// Advantage (pawns) at or below which a score counts as collapsed to
    /// the draw.
    pub draw_level: f64,
    /// Moves left tried once more when a stage collapses at every `k`
    /// although the curves rise (0: never): a slow win whose next capture or
    /// pawn move that keeps the edge lies beyond the largest `k` (KPK with
    /// the king far from its pawn) then holds, a fortress still collapses.
    #[serde(default = "default_extend")]
    pub extend: u32,
    /// Stages granted beyond `stages` for plain pawn pushes (no capture, no
    /// promotion) and for changes the defender makes: a defender's fortress
    /// often leaves the side ahead a few free pawn moves, each of which only
    /// postpones the draw, and the defender's recaptures and locking pushes
    /// are not the side ahead's progress; a line that spends them one by one
    /// must not run out of stages before the collapse shows. Such changes
    /// are irreversible and few, so this stays small.
    #[serde(default = "default_pushes")]
    pub pushes: u32,
}

fn default_extend() -> u32 {
    ProbeConfig::default().extend
}

fn default_pushes() -> u32 {
    ProbeConfig::default().pushes
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig {
            enabled: true,
            moves: vec![3, 5],
            extra_depth: 10,
            stages: 3,
            draw_level: 0.2,
            extend: 10,
            pushes: 6,
        }
    }
}

impl ProbeConfig {
    /// The most searches one progress test runs (the first stage searches every `k`, later
    /// stages the largest, and a collapse may be checked once more: one search without the
    /// line's first move, whose own later stages are followed too), for callers that bound
    /// a whole analysis's time; 0 when the test is off.
    pub fn max_searches(&self) -> u64 {
        if !self.enabled {
            return 0;
        }
        let later = u64::from(self.stages.saturating_sub(1) + self.pushes);
        let stages = later + 1;
        self.moves.len() as u64 + later + 1 + later + u64::from(self.extend > 0) * (stages + later)
    }

    /// Checks the options.
    pub fn validate(&self) -> Result<(), String> {
        if self.moves.is_empty() || self.moves.iter().any(|&k| k == 0 || k > 49) {
            return Err("probe moves must be between 1 and 49".into());
        }
        if self.moves.windows(2).any(|w| w[0] >= w[1]) {
            return Err("probe moves must be strictly ascending".into());
        }
        if self.stages == 0 || self.stages > 16 {
            return Err("probe stages must be between 1 and 16".into());
        }
        if self.pushes > 32 {
            return Err("probe pushes must be at most 32".into());
        }
        if self.draw_level.is_nan() || self.draw_level < 0.0 {
            return Err("probe draw level must be >= 0".into());
        }
        let largest = self.moves.last().copied().unwrap_or(0);
        if self.extend != 0 && (self.extend <= largest || self.extend > 49) {
            return Err(format!("probe extension must be 0 (off) or between {} and 49", largest + 1));
        }
        Ok(())
    }
}

/// One search with the clock advanced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeStep {
    /// Stage (1 = the analysed position itself).
    pub stage: u32,
    /// Moves left before the fifty-move draw.
    pub moves_left: u32,
    /// Depth reached: the depth asked (2k + extra plies) unless the search
    /// hit its time limit first.
    pub depth: u32,
    /// The score, White's view.
    pub eval: Eval,
    /// The side ahead's advantage in pawns.
    pub advantage: f64,
    /// Whether the score collapsed to the draw.
    pub collapsed: bool,
    /// The principal variation in SAN (up to the first irreversible move
    /// and a little beyond).
    pub pv: Vec<String>,
    /// The first irreversible move of the PV in SAN, if any.
    pub change: Option<String>,
}

/// What the progress test concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeOutcome {
    /// The score fell to the draw: no irreversible change keeps the edge.
    Collapses,
    /// The edge survived every `k` and every stage followed.
    Holds,
    /// Neither (the score dropped without reaching the draw, or a search
    /// failed to give a score).
    Inconclusive,
}

/// The progress test's record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressTest {
    /// The side whose progress was tested.
    pub side: Side,
    /// Every search, in the order run.
    pub steps: Vec<ProbeStep>,
    /// The conclusion.
    pub outcome: ProbeOutcome,
    /// The conclusion in words.
    pub summary: String,
    /// The tables' value of the position the test's line reached after a
    /// capture or pawn move, when tables were given and cover it: it decided
    /// the outcome (a win for the side ahead holds, anything else collapses).
    #[serde(default)]
    pub tablebase: Option<crate::tablebase::TableValue>,
}

/// The FEN of `pos` with its halfmove clock set to `clock` (the move number kept).
pub fn with_halfmove_clock(pos: &Position, clock: u32) -> String {
    let mut p = pos.clone();
    p.set_clocks(clock, pos.fullmove_number());
    p.fen()
}

/// The halfmove clock that leaves `k` moves (2k plies) before the fifty-move draw.
pub fn clock_for(moves_left: u32) -> u32 {
    100u32.saturating_sub(2 * moves_left)
}

/// Whether the test applies: it measures irreversible changes, and in a
/// position without pawns the only ones are captures and mate, which long
/// pawnless wins (KBNK, KRKN) reach only beyond any affordable `k`.
pub fn applicable(pos: &Position) -> bool {
    use bastion_core::Role;
    !(pos.pieces(Color::White, Role::Pawn).is_empty() && pos.pieces(Color::Black, Role::Pawn).is_empty())
}

/// Plays `pv` (UCI) from `pos` until just after the first irreversible move
/// (capture, pawn move, promotion: the clock is reset). Returns the SAN of
/// the moves played, the SAN of that move, and the position after it.
pub fn follow_to_change(pos: &Position, pv: &[String]) -> (Vec<String>, Option<(String, Position)>) {
    let mut p = pos.clone();
    let mut sans = Vec::new();
    for uci in pv {
        let Ok(m): Result<Move, _> = p.parse_uci(uci) else { break };
        let san = p.san(m);
        let next = p.play(m);
        sans.push(san.clone());
        if next.halfmove_clock() == 0 {
            return (sans, Some((san, next)));
        }
        p = next;
    }
    (sans, None)
}

/// Whether `pv` (UCI) from `pos` reaches its first irreversible move by
/// `side`'s own capture or promotion: material won, not a pawn push and not
/// the opponent's capture of something offered.
pub fn gains_material(pos: &Position, pv: &[String], side: Color) -> bool {
    let (_, change) = follow_to_change(pos, pv);
    change.is_some_and(|(san, next)| next.side_to_move() != side && (san.contains('x') || san.contains('=')))
}

/// Judges the steps of one stage (ascending `k`) for `side`: collapsed,
/// held at the largest `k` (advantage at least half the unconstrained one
/// and above the draw level), or neither.
///
/// The largest `k` decides a collapse: every line that forces a change
/// within fewer moves is open with more moves too, so a smaller `k` cannot
/// truly keep an edge the largest one loses. A smaller `k` left a little
/// above the draw level next to a collapse at the largest (Stockfish scales
/// its evaluation down as the fifty-move counter rises, but not to 0.00) is
/// noise; only one that keeps the edge outright contradicts the collapse.
pub fn judge_stage(steps: &[ProbeStep], unconstrained: f64, draw_level: f64) -> ProbeOutcome {
    let Some(last) = steps.last() else { return ProbeOutcome::Inconclusive };
    // Kept: clearly above the draw and at least half the unconstrained edge
    // (or a decisive 1.5 pawns, for engines whose scores swing widely).
    let keeps = |s: &ProbeStep| s.advantage > draw_level && s.advantage >= (0.5 * unconstrained).min(1.5);
    if last.collapsed && !steps.iter().any(keeps) {
        return ProbeOutcome::Collapses;
    }
    if keeps(last) {
        return ProbeOutcome::Holds;
    }
    ProbeOutcome::Inconclusive
}

/// Whether a move in SAN is a plain pawn push: irreversible, but neither a
/// capture nor a promotion, so it changes no material.
pub fn is_plain_push(san: &str) -> bool {
    san.starts_with(|c: char| ('a'..='h').contains(&c)) && !san.contains('x') && !san.contains('=')
}

/// Whether an evaluation for `side` counts as collapsed to the draw.
pub fn collapsed(eval: Eval, side: Color, draw_level: f64) -> bool {
    eval.mate().is_none() && eval.pawns_for(side).abs() <= draw_level
}

/// Combines the curves' verdict with the progress test, when one was run.
///
/// A collapse decides whatever the curves' level or slope (that is the
/// point: the engine's evaluation may be wrong; a curve rising by one or two
/// pawns at +2 in a locked position is drift, not progress); an edge that holds lets a flat
/// decisive advantage count as progress; an inconclusive test leaves a
/// verdict that rested on the level alone unclear. A mate or an exact draw
/// score found by the engine itself is never overruled.
pub fn combine(
    verdict: Verdict,
    ev: &Evidence,
    test: Option<&ProgressTest>,
    t: &Thresholds,
) -> (Verdict, Basis, String) {
    let keep = (verdict, ev.basis, ev.reason.clone());
    let Some(test) = test else { return keep };
    if matches!(ev.basis, Basis::Mate | Basis::DrawScore) {
        return (verdict, ev.basis, format!("{}; progress test: {}", ev.reason, test.summary));
    }
    // Exact values reached along the test's line decide like the test,
    // and a win there is progress whatever the curves' shape.
    let basis = if test.tablebase.is_some() { Basis::Tablebase } else { Basis::ProgressTest };
    match test.outcome {
        ProbeOutcome::Collapses if ev.ahead.is_some() && ev.material.abs() >= t.material_edge => {
            (Verdict::Fortress, basis, format!("{} (the curves alone said {verdict}: {})", test.summary, ev.reason))
        }
        ProbeOutcome::Collapses => (Verdict::DeadDraw, basis, format!("nobody is ahead and {}", test.summary)),
        ProbeOutcome::Holds if test.tablebase.is_some() => (
            Verdict::Progress,
            Basis::Tablebase,
            format!("{} (the curves alone said {verdict}: {})", test.summary, ev.reason),
        ),
        ProbeOutcome::Holds => match verdict {
            Verdict::Progress => {
                (Verdict::Progress, ev.basis, format!("{}; progress test agrees: {}", ev.reason, test.summary))
            }
            Verdict::Unclear if ev.ahead.is_some() && ev.advantage >= t.decisive => (
                Verdict::Progress,
                Basis::ProgressTest,
                format!("{} (the curves alone were unclear: {})", test.summary, ev.reason),
            ),
            _ => (verdict, ev.basis, format!("{}; progress test: {}", ev.reason, test.summary)),
        },
        ProbeOutcome::Inconclusive if verdict == Verdict::Progress && ev.basis == Basis::Level => (
            Verdict::Unclear,
            Basis::ProgressTest,
            format!("{}, but the progress test does not back it: {}", ev.reason, test.summary),
        ),
        ProbeOutcome::Inconclusive => (verdict, ev.basis, format!("{}; progress test: {}", ev.reason, test.summary)),
    }
}

/// The summary sentence of a finished test.
pub fn summarise(outcome: ProbeOutcome, steps: &[ProbeStep], changes: &[String]) -> String {
    let ks: Vec<String> = steps.iter().filter(|s| s.stage == 1).map(|s| s.moves_left.to_string()).collect();
    let after = if changes.is_empty() { String::new() } else { format!(" after {}", changes.join(", ")) };
    let last = steps.last().map_or("-".to_owned(), |s| s.eval.display());
    // A collapse is told by the search that collapsed: an extended search cut short, which
    // does not overrule it, may come after it with a high score.
    let fell_to = steps.iter().rev().find(|s| s.collapsed).map_or(last.clone(), |s| s.eval.display());
    match outcome {
        ProbeOutcome::Collapses => format!(
            "with k = {} moves left before the fifty-move draw{after} the score falls to {fell_to}: the side ahead cannot force a capture or pawn move that keeps its edge",
            ks.join(", ")
        ),
        ProbeOutcome::Holds => format!(
            "with k = {} moves left before the fifty-move draw the side ahead keeps its edge ({last}) through {} irreversible change(s){}",
            ks.join(", "),
            changes.len(),
            if changes.is_empty() { String::new() } else { format!(": {}", changes.join(", ")) }
        ),
        ProbeOutcome::Inconclusive => {
            let per_k: Vec<String> = steps.iter().map(|s| format!("k={} {}", s.moves_left, s.eval.display())).collect();
            format!("no clear collapse or hold with the fifty-move counter advanced ({}){after}", per_k.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(stage: u32, k: u32, cp: i32) -> ProbeStep {
        let eval = Eval::Cp(cp);
        ProbeStep {
            stage,
            moves_left: k,
            depth: 2 * k + 6,
            eval,
            advantage: eval.pawns(),
            collapsed: collapsed(eval, Color::White, 0.2),
            pv: vec![],
            change: None,
        }
    }

    #[test]
    fn clock_field_is_replaced() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap();
        assert_eq!(with_halfmove_clock(&pos("8/8/8/8/8/8/8/K1k5 w - - 0 1"), 94), "8/8/8/8/8/8/8/K1k5 w - - 94 1");
        assert_eq!(with_halfmove_clock(&pos("8/8/8/8/8/8/8/K1k5 b - -"), 90), "8/8/8/8/8/8/8/K1k5 b - - 90 1");
        assert_eq!(clock_for(7), 86);
        assert_eq!(clock_for(60), 0);
    }

    #[test]
    fn stage_judgement() {
        let all_zero = [step(1, 3, 0), step(1, 5, 12), step(1, 7, -5)];
        assert_eq!(judge_stage(&all_zero, 8.7, 0.2), ProbeOutcome::Collapses);
        let holds = [step(1, 3, 0), step(1, 5, 600), step(1, 7, 820)];
        assert_eq!(judge_stage(&holds, 8.7, 0.2), ProbeOutcome::Holds);
        let halves = [step(1, 3, 0), step(1, 5, 100), step(1, 7, 100)];
        assert_eq!(judge_stage(&halves, 8.7, 0.2), ProbeOutcome::Inconclusive);
        assert_eq!(judge_stage(&[], 1.0, 0.2), ProbeOutcome::Inconclusive);
    }

    #[test]
    fn the_largest_k_decides_a_collapse() {
        // Stockfish on a queen-and-pawn fortress: a residue just above the
        // draw level at k = 3, the draw at k = 5.
        assert_eq!(judge_stage(&[step(1, 3, 25), step(1, 5, 0)], 5.3, 0.2), ProbeOutcome::Collapses);
        // A smaller k that keeps the edge outright contradicts the collapse.
        assert_eq!(judge_stage(&[step(1, 3, 400), step(1, 5, 0)], 5.3, 0.2), ProbeOutcome::Inconclusive);
        // An edge at the largest k is never a collapse.
        assert_eq!(judge_stage(&[step(1, 3, 0), step(1, 5, 60)], 5.3, 0.2), ProbeOutcome::Inconclusive);
    }

    #[test]
    fn follows_the_pv_to_the_first_irreversible_move() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let pv: Vec<String> = ["e1d2", "e8d7", "e2e4", "d7d6"].iter().map(|s| s.to_string()).collect();
        let (sans, change) = follow_to_change(&pos, &pv);
        assert_eq!(sans, vec!["Kd2", "Kd7", "e4"]);
        let (san, after) = change.unwrap();
        assert_eq!(san, "e4");
        assert_eq!(after.halfmove_clock(), 0);
        let (_, none) = follow_to_change(&pos, &pv[..2]);
        assert!(none.is_none());
    }

    fn evidence(advantage: f64, basis: Basis) -> Evidence {
        Evidence {
            ahead: Some(Side::White),
            material: 5,
            final_depth: 16,
            window_from: 11,
            final_eval: format!("{advantage:+.2}"),
            advantage,
            range: 0.05,
            rise: 0.0,
            spread: 0.0,
            moves_compared: 5,
            mate: None,
            draw_run: 0,
            basis,
            reason: "curves".into(),
        }
    }

    fn test_with(outcome: ProbeOutcome) -> ProgressTest {
        ProgressTest { side: Side::White, steps: vec![], outcome, summary: "probe".into(), tablebase: None }
    }

    #[test]
    fn a_collapse_overrules_a_won_plateau() {
        let t = Thresholds::default();
        let ev = evidence(8.68, Basis::Level);
        let (v, basis, reason) = combine(Verdict::Progress, &ev, Some(&test_with(ProbeOutcome::Collapses)), &t);
        assert_eq!((v, basis), (Verdict::Fortress, Basis::ProgressTest));
        assert!(reason.contains("curves alone said progress"), "{reason}");
        // Without the test the curves' verdict stands.
        assert_eq!(combine(Verdict::Progress, &ev, None, &t).0, Verdict::Progress);
    }

    #[test]
    fn the_level_alone_needs_the_test_to_back_it() {
        let t = Thresholds::default();
        let ev = evidence(3.0, Basis::Level);
        let inconclusive = test_with(ProbeOutcome::Inconclusive);
        assert_eq!(combine(Verdict::Progress, &ev, Some(&inconclusive), &t).0, Verdict::Unclear);
        let holds = test_with(ProbeOutcome::Holds);
        assert_eq!(combine(Verdict::Progress, &ev, Some(&holds), &t).0, Verdict::Progress);
        let unclear = evidence(3.0, Basis::Shape);
        let (v, basis, _) = combine(Verdict::Unclear, &unclear, Some(&holds), &t);
        assert_eq!((v, basis), (Verdict::Progress, Basis::ProgressTest));
    }

    #[test]
    fn engine_proofs_are_never_overruled_and_balance_collapses_to_a_dead_draw() {
        let t = Thresholds::default();
        let drawn = evidence(0.0, Basis::DrawScore);
        let holds = test_with(ProbeOutcome::Holds);
        assert_eq!(combine(Verdict::Fortress, &drawn, Some(&holds), &t).0, Verdict::Fortress);
        let mut balanced = evidence(0.1, Basis::Balance);
        balanced.ahead = None;
        let (v, _, _) = combine(Verdict::Unclear, &balanced, Some(&test_with(ProbeOutcome::Collapses)), &t);
        assert_eq!(v, Verdict::DeadDraw);
    }

    fn table(winner: Option<Side>) -> crate::tablebase::TableValue {
        crate::tablebase::TableValue {
            fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
            line: vec!["Kxb5".into()],
            men: 4,
            value: if winner.is_some() { "win" } else { "draw" }.into(),
            winner,
            dtm: None,
        }
    }

    #[test]
    fn table_values_along_the_line_decide_with_their_own_basis() {
        let t = Thresholds::default();
        let flat = evidence(0.3, Basis::Shape);
        let won = ProgressTest { tablebase: Some(table(Some(Side::White))), ..test_with(ProbeOutcome::Holds) };
        // A table win beats a fortress-shaped curve.
        let (v, basis, _) = combine(Verdict::Fortress, &flat, Some(&won), &t);
        assert_eq!((v, basis), (Verdict::Progress, Basis::Tablebase));
        let drawn = ProgressTest { tablebase: Some(table(None)), ..test_with(ProbeOutcome::Collapses) };
        let (v, basis, _) = combine(Verdict::Progress, &evidence(3.0, Basis::Rise), Some(&drawn), &t);
        assert_eq!((v, basis), (Verdict::Fortress, Basis::Tablebase));
        // Without tables a collapse is the progress test's.
        let (_, basis, _) =
            combine(Verdict::Progress, &evidence(3.0, Basis::Rise), Some(&test_with(ProbeOutcome::Collapses)), &t);
        assert_eq!(basis, Basis::ProgressTest);
    }

    #[test]
    fn the_extension_must_lie_beyond_the_largest_k() {
        assert!(ProbeConfig::default().validate().is_ok());
        assert!(ProbeConfig { extend: 0, ..ProbeConfig::default() }.validate().is_ok());
        assert!(ProbeConfig { extend: 5, ..ProbeConfig::default() }.validate().is_err());
        assert!(ProbeConfig { extend: 50, ..ProbeConfig::default() }.validate().is_err());
        // Older JSON without the field reads with the default extension.
        let old = r#"{"enabled":true,"moves":[3,5],"extra_depth":10,"stages":3,"draw_level":0.2}"#;
        assert_eq!(serde_json::from_str::<ProbeConfig>(old).unwrap(), ProbeConfig::default());
    }

    #[test]
    fn a_collapse_is_told_by_the_search_that_collapsed() {
        // k = 3 and 5 collapse; the extended k = 10 search, cut short, came back high.
        let steps = [step(1, 3, 0), step(1, 5, 0), step(1, 10, 1418)];
        let text = summarise(ProbeOutcome::Collapses, &steps, &[]);
        assert!(text.contains("k = 3, 5, 10") && text.contains("falls to +0.00"), "{text}");
        let held = summarise(ProbeOutcome::Holds, &steps, &[]);
        assert!(held.contains("(+14.18)"), "{held}");
    }

    #[test]
    fn material_won_by_the_side_ahead_is_told_from_other_changes() {
        let pv = |moves: &str| moves.split(' ').map(str::to_owned).collect::<Vec<_>>();
        // A rook offered on d5: taking it is Black's gain, not White's.
        let pos = Position::from_fen("8/1PK5/8/1r6/3R4/4k3/8/8 w - - 0 1").unwrap();
        assert!(gains_material(&pos, &pv("d4d5 b5d5"), Color::Black));
        assert!(!gains_material(&pos, &pv("d4d5 b5d5"), Color::White), "the defender's capture");
        assert!(gains_material(&pos, &pv("b7b8q"), Color::White));
        assert!(!gains_material(&pos, &pv("c7c8 e3d2"), Color::White), "no change at all");
        let push = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(!gains_material(&push, &pv("e2e4"), Color::White), "a push wins nothing");
    }

    #[test]
    fn plain_pushes_are_told_from_captures_and_promotions() {
        assert!(is_plain_push("h4"));
        assert!(is_plain_push("e8+"));
        assert!(!is_plain_push("exd5"));
        assert!(!is_plain_push("g8=Q+"));
        assert!(!is_plain_push("Kxb5"));
        assert!(!is_plain_push("Qc4+"));
    }

    #[test]
    fn pawnless_positions_are_not_probed() {
        assert!(!applicable(&Position::from_fen("8/8/8/3k4/8/8/2NN4/4K3 w - - 0 1").unwrap()));
        assert!(applicable(&Position::from_fen("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1").unwrap()));
    }
}
