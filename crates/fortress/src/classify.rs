//! The curve classifier: pure functions from curves to a verdict.
//!
//! Following Guid & Bratko (2012): in a fortress the side ahead cannot show
//! progress, so its backed-up evaluations stop changing from some depth on
//! and many moves share practically the same value; in a won position they
//! keep rising (ultimately to a mate score).

use bastion_core::{Color, Position, Role};
use serde::{Deserialize, Serialize};

use crate::curve::{Curve, Point};
use crate::score::Eval;

/// The detector's judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The side ahead cannot make progress.
    Fortress,
    /// The side ahead makes progress (rising curves or a mate).
    Progress,
    /// Nobody is ahead and nothing can change: the score is the draw and
    /// stays there.
    DeadDraw,
    /// Neither pattern is clear (too few depths, oscillation, nobody ahead).
    Unclear,
}

/// The piece of evidence that decided a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The engine found a forced mate for the side ahead.
    Mate,
    /// The best line scores exactly 0.00 at the deepest depths.
    DrawScore,
    /// The side ahead's evaluation rises with depth (Guid & Bratko 2012, §3).
    Rise,
    /// Flat curves with the top moves close together (Guid & Bratko 2012, §3).
    Shape,
    /// The level of a flat evaluation (a won plateau).
    Level,
    /// The progress test with the fifty-move counter advanced.
    ProgressTest,
    /// The exact value of endgame tables, for the position or a position
    /// the progress test reached after a capture or pawn move.
    Tablebase,
    /// Nobody is ahead.
    Balance,
    /// Too few depths were reported to judge.
    TooFewDepths,
    /// The curves move without a pattern.
    NoPattern,
}

impl std::fmt::Display for Basis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Basis::Mate => "mate",
            Basis::DrawScore => "draw score",
            Basis::Rise => "rising curve",
            Basis::Shape => "curve shape",
            Basis::Level => "evaluation level",
            Basis::ProgressTest => "progress test",
            Basis::Tablebase => "tablebase",
            Basis::Balance => "balance",
            Basis::TooFewDepths => "too few depths",
            Basis::NoPattern => "no pattern",
        })
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Fortress => "fortress",
            Verdict::Progress => "progress",
            Verdict::DeadDraw => "dead draw",
            Verdict::Unclear => "unclear",
        })
    }
}

/// Thresholds of the classifier. Defaults were chosen by measurement on the
/// labelled set (see `docs/fortress.md`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// W: number of deepest depths the curves are judged over.
    pub window: u32,
    /// Largest change (max − min, pawns) of the best evaluation over the
    /// window that still counts as "not changing".
    pub tolerance: f64,
    /// Largest gap (pawns) between the best and the worst of the top moves at
    /// the final depth for them to count as "close together".
    pub spread: f64,
    /// Smallest rise (pawns, least-squares over the window) of the side
    /// ahead's evaluation that counts as progress.
    pub rise: f64,
    /// A flat curve at or above this advantage (pawns) is read as a won
    /// plateau (the engine judges the position decisive but its evaluation
    /// cannot show the slow progress, as in KQKR or KBNK), not as a fortress.
    /// Use infinity for the pure shape criterion of Guid & Bratko 2012, §3.
    pub decisive: f64,
    /// A rise only counts as progress when it ends at least this far ahead
    /// (pawns): a curve climbing from a bad score up to equality is the
    /// engine discovering a draw, not progress.
    pub progress_level: f64,
    /// Depths at the end of the best line that must all be exactly 0.00 (the
    /// engine's draw score: repetition, stalemate, 50-move rule) for the
    /// position to count as a proven fortress whatever the earlier curve did.
    pub draw_depths: u32,
    /// Material edge (pawn = 1, minor = 3, rook = 5, queen = 9) that makes a
    /// side "ahead" when the evaluation alone does not.
    pub material_edge: i32,
    /// Evaluation (pawns) that makes a side "ahead" regardless of material.
    pub eval_edge: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            window: 6,
            tolerance: 0.35,
            spread: 0.5,
            rise: 0.5,
            decisive: 1.5,
            progress_level: 1.0,
            draw_depths: 2,
            material_edge: 1,
            eval_edge: 1.5,
        }
    }
}

/// Why the classifier decided as it did: the measured features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The side that is ahead (`None`: nobody, so nobody can be stopped).
    pub ahead: Option<Side>,
    /// Material balance, White minus Black (pawn 1, minor 3, rook 5, queen 9).
    pub material: i32,
    /// Deepest depth judged.
    pub final_depth: u32,
    /// First depth of the window.
    pub window_from: u32,
    /// The best evaluation at the final depth (White's view) in text.
    pub final_eval: String,
    /// The side ahead's best evaluation at the final depth, pawns.
    pub advantage: f64,
    /// Max − min of the side ahead's best evaluation over the window.
    pub range: f64,
    /// Least-squares rise of that evaluation across the window, pawns.
    pub rise: f64,
    /// Best minus worst of the top moves at the final depth, pawns.
    pub spread: f64,
    /// How many moves the spread compares.
    pub moves_compared: usize,
    /// A mate score for the side ahead at the final depth.
    pub mate: Option<i32>,
    /// How many deepest depths in a row the best line scored exactly 0.00.
    pub draw_run: u32,
    /// The evidence that decided.
    pub basis: Basis,
    /// The rule that decided, in words.
    pub reason: String,
}

/// A colour, serialised as `white` / `black`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// Material balance, White minus Black, in traditional piece values.
pub fn material_balance(pos: &Position) -> i32 {
    let value = |c: Color| -> i32 {
        [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
            .iter()
            .map(|&(r, v)| v * pos.pieces(c, r).count() as i32)
            .sum()
    };
    value(Color::White) - value(Color::Black)
}

/// Least-squares slope times the x-extent: the rise a straight line fitted
/// to `(x, y)` makes across the data. Zero for fewer than two points.
pub fn fitted_rise(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 {
        return 0.0;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return 0.0;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let (lo, hi) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    sxy / sxx * (hi - lo)
}

/// Decides who is ahead: by evaluation when it is large, else by material.
pub fn ahead_side(final_pawns_white: f64, material: i32, t: &Thresholds) -> Option<Color> {
    if final_pawns_white.abs() >= t.eval_edge {
        Some(if final_pawns_white > 0.0 { Color::White } else { Color::Black })
    } else if material.abs() >= t.material_edge {
        Some(if material > 0 { Color::White } else { Color::Black })
    } else {
        None
    }
}

/// Classifies from the principal curve (the best line's evaluation at every
/// depth), the top moves' curves and the material balance.
///
/// The top moves' spread only counts when the side ahead is to move: the
/// "many moves keep the same value" of Guid & Bratko 2012, §3, is about the attacker's options;
/// a defender usually has a few moves that lose even in a fortress.
pub fn classify(
    principal: &[Point],
    curves: &[Curve],
    material: i32,
    side_to_move: Color,
    t: &Thresholds,
) -> (Verdict, Evidence) {
    let Some(last) = principal.last().copied() else {
        return (Verdict::Unclear, empty_evidence(material, "no depths were reported"));
    };
    let ahead = ahead_side(last.eval.pawns(), material, t);
    let window: Vec<Point> = principal.iter().rev().take(t.window.max(2) as usize).rev().copied().collect();
    let side = ahead.unwrap_or(Color::White);
    let adv: Vec<(f64, f64)> = window.iter().map(|p| (f64::from(p.depth), p.eval.pawns_for(side))).collect();
    let (lo, hi) = adv.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
    let finals: Vec<f64> = curves.iter().filter_map(|c| c.at(last.depth)).map(|e| e.pawns_for(side)).collect();
    let spread = if finals.is_empty() {
        0.0
    } else {
        let best = finals.iter().copied().fold(f64::MIN, f64::max);
        let worst = finals.iter().copied().fold(f64::MAX, f64::min);
        best - worst
    };
    let mate = last.eval.mate().filter(|_| last.eval.pawns_for(side) > 0.0);
    let mut ev = Evidence {
        ahead: ahead.map(Side::from),
        material,
        final_depth: last.depth,
        window_from: window.first().map_or(last.depth, |p| p.depth),
        final_eval: last.eval.display(),
        advantage: last.eval.pawns_for(side),
        range: hi - lo,
        rise: fitted_rise(&adv),
        spread,
        moves_compared: finals.len(),
        mate,
        draw_run: principal.iter().rev().take_while(|p| p.eval == Eval::Cp(0)).count() as u32,
        basis: Basis::NoPattern,
        reason: String::new(),
    };
    let attacker_to_move = ahead == Some(side_to_move);
    let (verdict, basis, reason) = decide(&ev, ahead.is_some(), attacker_to_move, window.len(), t);
    ev.basis = basis;
    ev.reason = reason;
    (verdict, ev)
}

/// The decision rules, in order; returns the verdict and the rule in words.
fn decide(
    ev: &Evidence,
    someone_ahead: bool,
    attacker_to_move: bool,
    window_len: usize,
    t: &Thresholds,
) -> (Verdict, Basis, String) {
    if let Some(n) = ev.mate {
        return (Verdict::Progress, Basis::Mate, format!("the engine finds a forced mate (#{n}) for the side ahead"));
    }
    if !someone_ahead {
        if t.draw_depths > 0 && ev.draw_run >= t.draw_depths {
            return (
                Verdict::DeadDraw,
                Basis::DrawScore,
                format!(
                    "nobody is ahead (material {:+}) and the best line scores exactly 0.00 at the last {} depths",
                    ev.material, ev.draw_run
                ),
            );
        }
        return (
            Verdict::Unclear,
            Basis::Balance,
            format!(
                "nobody is ahead (material {:+}, evaluation {}): there is no progress to stop",
                ev.material, ev.final_eval
            ),
        );
    }
    if window_len < t.window.max(2) as usize {
        return (
            Verdict::Unclear,
            Basis::TooFewDepths,
            format!("only {window_len} depths reported; the window needs {}", t.window),
        );
    }
    if t.draw_depths > 0 && ev.draw_run >= t.draw_depths {
        return (
            Verdict::Fortress,
            Basis::DrawScore,
            format!(
                "the best line scores exactly 0.00 (a draw the engine can prove) at the last {} depths despite material {:+}",
                ev.draw_run, ev.material
            ),
        );
    }
    if ev.rise >= t.rise && ev.advantage >= t.progress_level {
        return (
            Verdict::Progress,
            Basis::Rise,
            format!(
                "the side ahead's evaluation rises by {:.2} over depths {}-{} (threshold {:.2})",
                ev.rise, ev.window_from, ev.final_depth, t.rise
            ),
        );
    }
    let flat = ev.range <= t.tolerance;
    let close = !attacker_to_move || ev.spread <= t.spread;
    if flat && close && ev.advantage < t.decisive {
        let spread = if attacker_to_move {
            format!(" and the top {} moves lie within {:.2} (limit {:.2})", ev.moves_compared, ev.spread, t.spread)
        } else {
            " (the defender is to move; the spread of its moves is not judged)".to_owned()
        };
        return (
            Verdict::Fortress,
            Basis::Shape,
            format!(
                "evaluations stay within {:.2} over depths {}-{} (tolerance {:.2}){spread}",
                ev.range, ev.window_from, ev.final_depth, t.tolerance
            ),
        );
    }
    if ev.advantage >= t.decisive {
        let shape = if flat { "flat" } else { "not flat" };
        return (
            Verdict::Progress,
            Basis::Level,
            format!(
                "a decisive advantage ({:+.2} >= {:.2}) with {shape} curves (range {:.2}) and no fortress pattern below the decisive level",
                ev.advantage, t.decisive, ev.range
            ),
        );
    }
    if flat {
        return (
            Verdict::Unclear,
            Basis::Shape,
            format!(
                "the best line is flat (range {:.2}) but the top moves differ by {:.2}: one move matters",
                ev.range, ev.spread
            ),
        );
    }
    (
        Verdict::Unclear,
        Basis::NoPattern,
        format!("evaluations move by {:.2} over the window without rising (rise {:+.2})", ev.range, ev.rise),
    )
}

fn empty_evidence(material: i32, reason: &str) -> Evidence {
    Evidence {
        ahead: None,
        material,
        final_depth: 0,
        window_from: 0,
        final_eval: "-".into(),
        advantage: 0.0,
        range: 0.0,
        rise: 0.0,
        spread: 0.0,
        moves_compared: 0,
        mate: None,
        draw_run: 0,
        basis: Basis::TooFewDepths,
        reason: reason.into(),
    }
}

/// Whether a curve rises consistently over its last `window` points for
/// `side`: a fitted rise of at least `rise` pawns with at most a third of the
/// steps going down by more than `tolerance`, or a final mate for `side`.
pub fn rises(curve: &[Point], side: Color, window: u32, rise: f64, tolerance: f64) -> bool {
    if let Some(last) = curve.last() {
        if last.eval.mate().is_some() && last.eval.pawns_for(side) > 0.0 {
            return true;
        }
    }
    let tail: Vec<(f64, f64)> = curve
        .iter()
        .rev()
        .take(window.max(2) as usize)
        .rev()
        .map(|p| (f64::from(p.depth), p.eval.pawns_for(side)))
        .collect();
    if tail.len() < 3 {
        return false;
    }
    let drops = tail.windows(2).filter(|w| w[1].1 < w[0].1 - tolerance).count();
    fitted_rise(&tail) >= rise && drops * 3 < tail.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(cps: &[i32]) -> Vec<Point> {
        cps.iter().enumerate().map(|(i, &cp)| Point { depth: i as u32 + 2, eval: Eval::Cp(cp) }).collect()
    }

    fn top(cps: &[i32], depth: u32) -> Vec<Curve> {
        cps.iter()
            .map(|&cp| Curve {
                san: String::new(),
                uci: String::new(),
                evals_by_depth: vec![Point { depth, eval: Eval::Cp(cp) }],
            })
            .collect()
    }

    #[test]
    fn flat_and_close_with_material_edge_is_fortress() {
        let p = curve(&[40, 10, 30, 26, 27, 26, 27, 26, 26, 27]);
        let (v, ev) = classify(&p, &top(&[27, 27, 26, 25, 20], 11), 4, Color::White, &Thresholds::default());
        assert_eq!(v, Verdict::Fortress, "{ev:?}");
        assert_eq!(ev.ahead, Some(Side::White));
        assert!(ev.range <= 0.02);
    }

    #[test]
    fn rising_curve_is_progress_even_when_low() {
        let p = curve(&[50, 55, 60, 80, 95, 120, 150, 170, 200, 240]);
        let (v, ev) = classify(&p, &top(&[240, 60], 11), 2, Color::White, &Thresholds::default());
        assert_eq!(v, Verdict::Progress, "{ev:?}");
        assert!(ev.rise > 1.0);
    }

    #[test]
    fn black_side_ahead_rises_downwards() {
        let p = curve(&[-50, -55, -60, -80, -95, -120, -150, -170, -200, -240]);
        let (v, ev) = classify(&p, &[], -3, Color::Black, &Thresholds::default());
        assert_eq!((v, ev.ahead), (Verdict::Progress, Some(Side::Black)));
    }

    #[test]
    fn mate_for_the_side_ahead_is_progress() {
        let mut p = curve(&[300, 310, 320, 320, 330, 330]);
        p.push(Point { depth: 8, eval: Eval::Mate(12) });
        let (v, ev) = classify(&p, &[], 4, Color::White, &Thresholds::default());
        assert_eq!((v, ev.mate), (Verdict::Progress, Some(12)));
    }

    #[test]
    fn flat_but_far_apart_moves_is_unclear() {
        let p = curve(&[100, 100, 101, 100, 100, 100, 100]);
        let (v, _) = classify(&p, &top(&[100, -200, -300], 8), 3, Color::White, &Thresholds::default());
        assert_eq!(v, Verdict::Unclear);
    }

    #[test]
    fn flat_at_decisive_level_is_a_won_plateau_unless_disabled() {
        let p = curve(&[240, 250, 245, 250, 248, 251, 249]);
        let tops = top(&[249, 248, 247], 8);
        let (v, _) = classify(&p, &tops, 4, Color::White, &Thresholds::default());
        assert_eq!(v, Verdict::Progress);
        let pure = Thresholds { decisive: f64::INFINITY, ..Thresholds::default() };
        assert_eq!(classify(&p, &tops, 4, Color::White, &pure).0, Verdict::Fortress);
    }

    #[test]
    fn climbing_to_equality_is_not_progress() {
        let p = curve(&[-90, -75, -60, -45, -30, -15, -2]);
        let (v, ev) = classify(&p, &[], 6, Color::Black, &Thresholds::default());
        assert!(ev.rise > 0.5);
        assert_ne!(v, Verdict::Progress);
    }

    #[test]
    fn settled_draw_score_is_a_fortress_even_after_a_wobble() {
        let p = curve(&[300, 250, 36, 20, 30, 0, 0, 0]);
        let (v, ev) = classify(&p, &top(&[0, 0, 0], 9), 3, Color::White, &Thresholds::default());
        assert_eq!((v, ev.draw_run), (Verdict::Fortress, 3));
    }

    #[test]
    fn balanced_position_with_a_proven_draw_is_a_dead_draw() {
        let p = curve(&[10, 0, 0, 0, 0, 0, 0]);
        let (v, ev) = classify(&p, &[], 0, Color::White, &Thresholds::default());
        assert_eq!((v, ev.basis), (Verdict::DeadDraw, Basis::DrawScore));
    }

    #[test]
    fn balanced_position_is_unclear() {
        let p = curve(&[0, 10, -10, 12, 8, 15, 10]);
        assert_eq!(classify(&p, &[], 0, Color::White, &Thresholds::default()).0, Verdict::Unclear);
    }

    #[test]
    fn too_few_depths_is_unclear() {
        let p = curve(&[20, 20, 20]);
        assert_eq!(classify(&p, &[], 4, Color::White, &Thresholds::default()).0, Verdict::Unclear);
    }

    #[test]
    fn fitted_rise_of_a_line_is_its_total_change() {
        let pts: Vec<(f64, f64)> = (0..5).map(|i| (f64::from(i), 0.5 * f64::from(i))).collect();
        assert!((fitted_rise(&pts) - 2.0).abs() < 1e-9);
        assert_eq!(fitted_rise(&[(1.0, 3.0)]), 0.0);
    }

    #[test]
    fn rises_needs_consistency() {
        let up = curve(&[-100, -80, -60, -40, -20, 0, 20]);
        assert!(rises(&up, Color::White, 6, 0.5, 0.1));
        let zigzag = curve(&[0, 200, -100, 250, -50, 300, 0]);
        assert!(!rises(&zigzag, Color::White, 6, 0.5, 0.1));
        assert!(!rises(&up, Color::Black, 6, 0.5, 0.1));
    }
}
