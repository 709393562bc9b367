//! Sequential probability ratio test on logistic Elo bounds.
//!
//! We follow fishtest's generalized SPRT (GSPRT): the results are modelled
//! as a multinomial distribution over the possible outcomes (3 for single
//! games, 5 for game pairs) whose shape is unknown. For each hypothesis
//! `score = s0` and `score = s1` the nuisance parameters are replaced by the
//! maximum-likelihood distribution with that expected score, and the
//! log-likelihood ratio (LLR) of the two is compared with Wald's bounds.
//!
//! [`llr_logistic`] computes that exact GSPRT LLR and is what [`SprtParams`]
//! uses: it is what fishtest runs for logistic-Elo tests, so our stopping
//! decisions match the numbers people compare against. The MLE needs only a
//! one-dimensional root-find (a few hundred float operations), so there is
//! no performance reason to prefer an approximation.
//! [`llr_logistic_normal_approx`] is the Brownian-motion approximation
//! `N * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)`; it agrees closely for
//! the narrow bounds used in practice and is kept for comparison and for
//! quick estimates.

use super::results::{Pentanomial, Wdl};
use super::{elo_to_score, StatsError};

/// Parameters of an SPRT: logistic Elo bounds and error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtParams {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

/// Outcome of checking an SPRT against its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtResult {
    /// Neither bound crossed: play more games.
    Continue,
    /// LLR fell below the lower bound: the change is not an improvement of
    /// `elo1` (accept `elo = elo0`).
    AcceptH0,
    /// LLR rose above the upper bound: accept `elo = elo1`.
    AcceptH1,
}

/// A snapshot of an SPRT: the LLR, its bounds and the resulting decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    /// Log-likelihood ratio of H1 versus H0 for the results so far.
    pub llr: f64,
    /// Lower (H0-accepting) bound, `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// Upper (H1-accepting) bound, `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// Decision implied by `llr` and the bounds.
    pub result: SprtResult,
}

impl SprtParams {
    /// Creates SPRT parameters for `H0: elo = elo0` versus `H1: elo = elo1`
    /// (logistic Elo) with false-positive rate `alpha` and false-negative
    /// rate `beta`, e.g. `SprtParams::new(0.0, 2.0, 0.05, 0.05)`.
    ///
    /// Fails unless both bounds are finite with `elo0 < elo1`, and both error
    /// rates lie in `(0, 1)` with `alpha + beta < 1` (otherwise the lower
    /// bound would not be below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, StatsError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(StatsError::InvalidEloBounds { elo0, elo1 });
        }
        let in_unit = |x: f64| x > 0.0 && x < 1.0;
        if !(in_unit(alpha) && in_unit(beta) && alpha + beta < 1.0) {
            return Err(StatsError::InvalidErrorRates { alpha, beta });
        }
        Ok(Self { elo0, elo1, alpha, beta })
    }

    /// Elo difference under the null hypothesis.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// Elo difference under the alternative hypothesis.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// False-positive rate.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// False-negative rate.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Lower LLR bound, `ln(beta / (1 - alpha))`: below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound, `ln((1 - beta) / alpha)`: above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Decision for a given LLR. NaN (no usable data) continues the test.
    pub fn decide(&self, llr: f64) -> SprtResult {
        if llr > self.upper_bound() {
            SprtResult::AcceptH1
        } else if llr < self.lower_bound() {
            SprtResult::AcceptH0
        } else {
            SprtResult::Continue
        }
    }

    /// Exact GSPRT LLR of game-pair results (the recommended model).
    pub fn llr_pentanomial(&self, results: &Pentanomial) -> f64 {
        llr_logistic(self.elo0, self.elo1, &results.counts)
    }

    /// Exact GSPRT LLR of single-game results.
    pub fn llr_trinomial(&self, results: &Wdl) -> f64 {
        llr_logistic(self.elo0, self.elo1, &results.counts())
    }

    /// Full SPRT status for game-pair results.
    pub fn status_pentanomial(&self, results: &Pentanomial) -> SprtStatus {
        self.status(self.llr_pentanomial(results))
    }

    /// Full SPRT status for single-game results.
    pub fn status_trinomial(&self, results: &Wdl) -> SprtStatus {
        self.status(self.llr_trinomial(results))
    }

    fn status(&self, llr: f64) -> SprtStatus {
        SprtStatus { llr, lower: self.lower_bound(), upper: self.upper_bound(), result: self.decide(llr) }
    }
}

/// Count given to empty outcome categories, as fishtest does: without it a
/// category never observed would get probability 0 under the MLE and the
/// LLR would be undefined (or infinitely confident) early in a test.
const REGULARIZATION: f64 = 1e-3;

/// Turns outcome counts into an empirical distribution over per-game score
/// values `i / (k - 1)`, with empty categories regularized. Returns the
/// (regularized) sample count and `(value, probability)` pairs, or `None` if
/// there are no samples or fewer than two categories.
fn empirical(counts: &[u64]) -> Option<(f64, Vec<(f64, f64)>)> {
    if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
        return None;
    }
    let regularized: Vec<f64> = counts.iter().map(|&c| if c == 0 { REGULARIZATION } else { c as f64 }).collect();
    let n: f64 = regularized.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = regularized.iter().enumerate().map(|(i, &c)| (i as f64 / last, c / n)).collect();
    Some((n, pdf))
}

/// Maximum-likelihood distribution on the support of `pdf` whose expected
/// value is `s` (fishtest's `MLE_expected`).
///
/// By Lagrange multipliers the MLE has the form `p_i / (1 + x (a_i - s))`
/// where `x` solves `sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`. That
/// function is strictly decreasing in `x` on the interval where all
/// denominators stay positive, so bisection finds the root reliably with no
/// derivative and no tuning. Returns `None` unless `s` lies strictly between
/// the smallest and largest values.
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let (min, max) =
        pdf.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(a, _)| (lo.min(a - s), hi.max(a - s)));
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let secular = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * (a - s) / (1.0 + x * (a - s))).sum() };
    // Denominators are positive for x in (-1/max, -1/min).
    const EDGE: f64 = 1e-9;
    let (mut lo, mut hi) = (-1.0 / max + EDGE, -1.0 / min - EDGE);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break; // interval can no longer be split in f64
        }
        if secular(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    Some(pdf.iter().map(|&(a, p)| p / (1.0 + x * (a - s))).collect())
}

/// Exact generalized log-likelihood ratio (fishtest's `LLR_logistic`) of
/// `H1: elo = elo1` versus `H0: elo = elo0` for outcome counts indexed by
/// half points: `[L, D, W]` for games or the five pentanomial pair counts.
///
/// Returns 0 when there are no results, and NaN when the bounds are not
/// finite (no valid test exists then).
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let Some((n, pdf)) = empirical(counts) else {
        return 0.0;
    };
    let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
    let (Some(p0), Some(p1)) = (mle_with_mean(&pdf, s0), mle_with_mean(&pdf, s1)) else {
        return f64::NAN;
    };
    n * pdf.iter().zip(p0.iter().zip(&p1)).map(|(&(_, p), (&q0, &q1))| p * (q1.ln() - q0.ln())).sum::<f64>()
}

/// Normal (Brownian-motion) approximation of [`llr_logistic`] (fishtest's
/// `LLR_alt2`): `N * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)` on the
/// regularized empirical distribution.
///
/// Returns 0 when there are no results and NaN for non-finite bounds.
pub fn llr_logistic_normal_approx(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let Some((n, pdf)) = empirical(counts) else {
        return 0.0;
    };
    if !(elo0.is_finite() && elo1.is_finite()) {
        return f64::NAN;
    }
    let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
    let mean: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let var: f64 = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    // Regularization keeps var > 0 whenever there are at least two
    // categories, so this division is safe.
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn params() -> SprtParams {
        SprtParams::new(0.0, 2.0, 0.05, 0.05).unwrap()
    }

    #[test]
    fn bounds_match_wald() {
        let p = params();
        // ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        assert!((p.lower_bound() + 2.944_439).abs() < 1e-6);
        assert!((p.upper_bound() - 2.944_439).abs() < 1e-6);
        let q = SprtParams::new(-1.0, 3.0, 0.05, 0.1).unwrap();
        assert!((q.lower_bound() - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((q.upper_bound() - (0.9f64 / 0.05).ln()).abs() < 1e-12);
    }

    #[test]
    fn invalid_params_are_rejected() {
        assert!(matches!(SprtParams::new(2.0, 0.0, 0.05, 0.05), Err(StatsError::InvalidEloBounds { .. })));
        assert!(SprtParams::new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(SprtParams::new(0.0, f64::INFINITY, 0.05, 0.05).is_err());
        assert!(matches!(SprtParams::new(0.0, 2.0, 0.0, 0.05), Err(StatsError::InvalidErrorRates { .. })));
        assert!(SprtParams::new(0.0, 2.0, 0.6, 0.5).is_err());
        assert!(SprtParams::new(0.0, 2.0, 0.05, f64::NAN).is_err());
    }

    #[test]
    fn no_results_means_continue() {
        let p = params();
        assert_eq!(p.llr_pentanomial(&Pentanomial::default()), 0.0);
        assert_eq!(p.llr_trinomial(&Wdl::default()), 0.0);
        assert_eq!(p.status_pentanomial(&Pentanomial::default()).result, SprtResult::Continue);
        assert_eq!(p.decide(f64::NAN), SprtResult::Continue);
    }

    #[test]
    fn lopsided_win_accepts_h1() {
        let p = params();
        let winning = Pentanomial::new([100, 600, 2000, 900, 400]);
        let status = p.status_pentanomial(&winning);
        assert!(status.llr > status.upper, "{status:?}");
        assert_eq!(status.result, SprtResult::AcceptH1);
        let wdl = Wdl::new(3000, 4000, 2000);
        assert_eq!(p.status_trinomial(&wdl).result, SprtResult::AcceptH1);
    }

    #[test]
    fn losing_result_accepts_h0() {
        let p = params();
        let losing = Pentanomial::new([400, 900, 2000, 600, 100]);
        assert_eq!(p.status_pentanomial(&losing).result, SprtResult::AcceptH0);
        let wdl = Wdl::new(2000, 4000, 3000);
        assert_eq!(p.status_trinomial(&wdl).result, SprtResult::AcceptH0);
    }

    #[test]
    fn few_games_continue() {
        let p = params();
        let early = Pentanomial::new([1, 3, 8, 4, 1]);
        assert_eq!(p.status_pentanomial(&early).result, SprtResult::Continue);
    }

    #[test]
    fn reference_values() {
        // Reference values computed independently with a separate Python
        // implementation of fishtest's procedure (regularize, MLE by
        // bisection on the secular equation, N * E[log p1 - log p0]).
        let cases: [(&[u64], f64, f64, f64); 6] = [
            (&[1000, 3000, 2000], 0.0, 2.0, 11.324_813),
            (&[3000, 4100, 3100], 0.0, 2.0, 0.679_987),
            (&[3000, 4100, 3100], -3.0, 1.0, 2.490_148),
            (&[20, 300, 1000, 350, 30], 0.0, 2.0, 1.389_082),
            (&[100, 600, 2000, 900, 400], 0.0, 2.0, 11.843_724),
            (&[1, 0, 0, 0, 2], 0.0, 2.0, 0.005_712),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = llr_logistic(elo0, elo1, counts);
            assert!((llr - expected).abs() < 1e-4, "{counts:?}: {llr} vs {expected}");
        }
    }

    #[test]
    fn normal_approximation_is_close_for_narrow_bounds() {
        for counts in [&[3000u64, 4100, 3100][..], &[20, 300, 1000, 350, 30], &[35, 320, 1000, 300, 25]] {
            let exact = llr_logistic(0.0, 2.0, counts);
            let approx = llr_logistic_normal_approx(0.0, 2.0, counts);
            assert!((exact - approx).abs() < 0.005 * exact.abs().max(1.0), "{exact} vs {approx}");
        }
    }

    #[test]
    fn mle_hits_requested_mean() {
        let (_, pdf) = empirical(&[5, 17, 40, 20, 3]).unwrap();
        for s in [0.3, 0.5, 0.52, 0.7] {
            let q = mle_with_mean(&pdf, s).unwrap();
            let total: f64 = q.iter().sum();
            let mean: f64 = pdf.iter().zip(&q).map(|(&(a, _), &p)| a * p).sum();
            assert!((total - 1.0).abs() < 1e-9);
            assert!((mean - s).abs() < 1e-9);
        }
    }

    #[test]
    fn llr_is_antisymmetric_under_mirroring() {
        // Swapping the roles of the engines and of the hypotheses negates
        // the LLR: LLR(-e1 vs -e0 | mirrored) = -LLR(e1 vs e0 | counts).
        let counts = [12u64, 80, 200, 95, 15];
        let mirrored = [15u64, 95, 200, 80, 12];
        let a = llr_logistic(0.0, 2.0, &counts);
        let b = llr_logistic(-2.0, 0.0, &mirrored);
        assert!((a + b).abs() < 1e-9, "{a} {b}");
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        assert_eq!(llr_logistic(0.0, 2.0, &[]), 0.0);
        assert_eq!(llr_logistic(0.0, 2.0, &[7]), 0.0);
        assert!(llr_logistic(0.0, f64::INFINITY, &[1, 2, 3]).is_nan());
        assert!(llr_logistic(f64::NAN, 2.0, &[1, 2, 3]).is_nan());
        assert!(llr_logistic_normal_approx(0.0, f64::NAN, &[1, 2, 3]).is_nan());
        assert!(llr_logistic(0.0, 2.0, &[u64::MAX, 0, u64::MAX]).is_finite());
    }

    proptest! {
        #[test]
        fn llr_is_finite_and_never_panics(
            counts in proptest::collection::vec(0u64..1_000_000, 3..=5),
            elo0 in -50.0f64..50.0,
            width in 0.1f64..20.0,
        ) {
            let llr = llr_logistic(elo0, elo0 + width, &counts);
            prop_assert!(llr.is_finite());
            let approx = llr_logistic_normal_approx(elo0, elo0 + width, &counts);
            prop_assert!(approx.is_finite());
        }

        #[test]
        fn more_wins_never_lowers_llr(base in proptest::collection::vec(1u64..500, 5)) {
            let mut better = base.clone();
            better[4] += 50;
            let a = llr_logistic(0.0, 5.0, &base);
            let b = llr_logistic(0.0, 5.0, &better);
            prop_assert!(b >= a - 1e-9);
        }
    }
}
