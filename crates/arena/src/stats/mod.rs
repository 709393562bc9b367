//! Match statistics: Elo conversions, error bars, LOS and SPRT.
//!
//! Results can be accumulated per game ([`Wdl`], the *trinomial* model) or
//! per game pair ([`Pentanomial`]). Pairs are the two games of one opening
//! played with colours reversed; their results are correlated (a lopsided
//! opening tends to be won by whoever has the good side in both games), so
//! treating the pair as the unit of sampling gives honest, usually smaller,
//! error bars. This is what fishtest, OpenBench and fastchess report.
//!
//! All Elo values are *logistic* Elo: a score fraction `s` corresponds to
//! `-400 * log10(1/s - 1)`.
//!
//! ```
//! use bastion_arena::stats::{Pentanomial, SprtParams, SprtResult};
//!
//! // Pairs scoring 0, ½, 1, 1½ and 2 points.
//! let results = Pentanomial::new([10, 60, 200, 90, 15]);
//! let estimate = results.elo_estimate().unwrap();
//! assert!(estimate.lower < estimate.elo && estimate.elo < estimate.upper);
//! println!("{:+.1} ± {:.1} Elo", estimate.elo, estimate.error_margin());
//!
//! let sprt = SprtParams::new(0.0, 2.0, 0.05, 0.05)?;
//! let status = sprt.status_pentanomial(&results);
//! assert_eq!(status.result, SprtResult::Continue); // LLR ≈ 0.65 of ±2.94
//! # Ok::<(), bastion_arena::stats::StatsError>(())
//! ```

mod normal;
mod results;
mod sprt;

pub use normal::{normal_cdf, normal_quantile};
pub use results::{EloEstimate, GameResult, Pentanomial, Wdl};
pub use sprt::{llr_logistic, llr_logistic_normal_approx, SprtParams, SprtResult, SprtStatus};

/// Errors for statistics parameters that cannot describe a valid test.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// The SPRT Elo bounds are not finite or not ordered `elo0 < elo1`.
    #[error("SPRT bounds must be finite with elo0 < elo1 (got elo0={elo0}, elo1={elo1})")]
    InvalidEloBounds {
        /// Elo difference under the null hypothesis.
        elo0: f64,
        /// Elo difference under the alternative hypothesis.
        elo1: f64,
    },
    /// The SPRT error rates are outside `(0, 1)` or sum to 1 or more.
    #[error("SPRT error rates must lie in (0, 1) with alpha + beta < 1 (got alpha={alpha}, beta={beta})")]
    InvalidErrorRates {
        /// Probability of a false positive (accepting H1 when H0 holds).
        alpha: f64,
        /// Probability of a false negative (accepting H0 when H1 holds).
        beta: f64,
    },
}

/// Converts an expected score fraction in `[0, 1]` to a logistic Elo difference.
///
/// A score of exactly 0 or 1 maps to negative or positive infinity; a score
/// outside `[0, 1]` (or NaN) has no Elo equivalent and maps to NaN.
pub fn score_to_elo(score: f64) -> f64 {
    if !(0.0..=1.0).contains(&score) {
        return f64::NAN;
    }
    // log10(1/s - 1) is -inf at s = 1 and +inf at s = 0, which is exactly
    // the limit we want, so the edges need no special case.
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Converts a logistic Elo difference to the expected score fraction.
///
/// Infinite inputs map to 0 or 1; NaN maps to NaN.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sixty_percent_is_about_seventy_elo() {
        // -400 * log10(0.4 / 0.6) = 400 * log10(1.5) = 70.4365...
        assert!((score_to_elo(0.6) - 70.4365).abs() < 1e-3);
        assert!((score_to_elo(0.4) + 70.4365).abs() < 1e-3);
    }

    #[test]
    fn even_score_is_zero_elo() {
        assert_eq!(score_to_elo(0.5), 0.0);
        assert_eq!(elo_to_score(0.0), 0.5);
    }

    #[test]
    fn known_elo_to_score_values() {
        // 400 Elo is odds of 10:1 by the definition of the logistic scale.
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((elo_to_score(-400.0) - 1.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn edge_and_invalid_scores() {
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert!(score_to_elo(1.5).is_nan());
        assert!(score_to_elo(-0.1).is_nan());
        assert!(score_to_elo(f64::NAN).is_nan());
        assert_eq!(elo_to_score(f64::INFINITY), 1.0);
        assert_eq!(elo_to_score(f64::NEG_INFINITY), 0.0);
    }

    proptest! {
        #[test]
        fn elo_round_trips(elo in -1500.0f64..1500.0) {
            let back = score_to_elo(elo_to_score(elo));
            prop_assert!((back - elo).abs() < 1e-6);
        }

        #[test]
        fn elo_is_antisymmetric(s in 0.001f64..0.999) {
            prop_assert!((score_to_elo(s) + score_to_elo(1.0 - s)).abs() < 1e-6);
        }
    }
}
