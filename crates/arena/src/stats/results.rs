//! Result accumulators (trinomial and pentanomial) and Elo estimates.

use super::normal::{normal_cdf, normal_quantile};
use super::score_to_elo;

/// The result of one game from the point of view of the engine under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The engine under test won.
    Win,
    /// The game was drawn.
    Draw,
    /// The engine under test lost.
    Loss,
}

impl GameResult {
    /// Points scored: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// Points scored counted in half points (2, 1 or 0), exact for indexing.
    fn half_points(self) -> u8 {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// An Elo difference with a confidence interval, from either result model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Mean score fraction per game of the engine under test.
    pub score: f64,
    /// Standard error of `score`.
    pub score_stderr: f64,
    /// Point estimate of the logistic Elo difference.
    pub elo: f64,
    /// Lower end of the Elo confidence interval (may be `-inf`).
    pub lower: f64,
    /// Upper end of the Elo confidence interval (may be `+inf`).
    pub upper: f64,
    /// Two-sided confidence level of `[lower, upper]`, e.g. 0.95.
    pub confidence: f64,
}

impl EloEstimate {
    /// Half the width of the Elo interval: the "±" that match reports print.
    ///
    /// The logistic curve makes the interval slightly asymmetric around
    /// `elo`; like fastchess we report the half-width.
    pub fn error_margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Default confidence level of [`Wdl::elo_estimate`] and
/// [`Pentanomial::elo_estimate`].
const DEFAULT_CONFIDENCE: f64 = 0.95;

/// Mean and variance of a discrete distribution given as `(value, count)`.
///
/// Returns `None` when the counts sum to zero.
fn mean_variance(dist: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = dist.iter().map(|&(_, c)| c as f64).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = dist.iter().map(|&(v, c)| v * c as f64).sum::<f64>() / n;
    let var = dist.iter().map(|&(v, c)| c as f64 * (v - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, var))
}

/// Builds an Elo estimate from the per-sample score distribution, where a
/// sample is a game (trinomial) or a pair (pentanomial, values = score per
/// game within the pair).
fn estimate(dist: &[(f64, u64)], confidence: f64) -> Option<EloEstimate> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let (n, mean, var) = mean_variance(dist)?;
    // One sample shows no spread: its variance of zero would claim an exact result
    // (a live report printed "± 0.0" after the first pair), so the interval is unbounded.
    let stderr = if n < 2.0 { f64::INFINITY } else { (var / n).sqrt() };
    let z = normal_quantile(0.5 + confidence / 2.0);
    // Build the interval on the score scale, where the normal approximation
    // applies, and only then map it to Elo; clamping keeps a huge interval
    // from producing NaN instead of an infinite bound.
    let lo = (mean - z * stderr).clamp(0.0, 1.0);
    let hi = (mean + z * stderr).clamp(0.0, 1.0);
    Some(EloEstimate {
        score: mean,
        score_stderr: stderr,
        elo: score_to_elo(mean),
        lower: score_to_elo(lo),
        upper: score_to_elo(hi),
        confidence,
    })
}

/// Probability that the true score exceeds ½, by the normal approximation; `None`
/// with fewer than two samples, which give no estimate of the spread.
fn los_normal(dist: &[(f64, u64)]) -> Option<f64> {
    let (n, mean, var) = mean_variance(dist)?;
    if n < 2.0 {
        return None;
    }
    let stderr = (var / n).sqrt();
    if stderr == 0.0 {
        // Every sample identical: all evidence points one way (or nowhere).
        return Some(match mean.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        });
    }
    Some(normal_cdf((mean - 0.5) / stderr))
}

/// Win/draw/loss counts of the engine under test: the trinomial model,
/// which treats every game as an independent sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Creates counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self { wins, draws, losses }
    }

    /// Adds one game result.
    pub fn record(&mut self, result: GameResult) {
        let slot = match result {
            GameResult::Win => &mut self.wins,
            GameResult::Draw => &mut self.draws,
            GameResult::Loss => &mut self.losses,
        };
        *slot = slot.saturating_add(1);
    }

    /// Adds the counts of `other` (e.g. from another worker thread).
    pub fn merge(&mut self, other: &Wdl) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }

    /// Number of games played.
    pub fn games(&self) -> u64 {
        self.wins.saturating_add(self.draws).saturating_add(self.losses)
    }

    /// Counts in fishtest's order `[losses, draws, wins]`, i.e. indexed by
    /// half points scored.
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Mean score per game, or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        mean_variance(&self.distribution()).map(|(_, mean, _)| mean)
    }

    /// Fraction of games drawn, or `None` before the first game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// Elo difference with a 95% confidence interval; `None` before the
    /// first game.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        self.elo_estimate_with_confidence(DEFAULT_CONFIDENCE)
    }

    /// Elo difference with a confidence interval at the given two-sided
    /// level in `(0, 1)`; `None` before the first game or for an invalid
    /// level.
    pub fn elo_estimate_with_confidence(&self, confidence: f64) -> Option<EloEstimate> {
        estimate(&self.distribution(), confidence)
    }

    /// Likelihood of superiority: the probability that the engine under test
    /// is stronger, `Φ((W - L) / sqrt(W + L))`.
    ///
    /// This is the classic formula (as in cutechess and fastchess): draws
    /// carry no information about who is stronger, so only decisive games
    /// count. `None` before the first game; 0.5 when all games were drawn.
    pub fn los(&self) -> Option<f64> {
        if self.games() == 0 {
            return None;
        }
        let decisive = self.wins as f64 + self.losses as f64;
        if decisive == 0.0 {
            return Some(0.5);
        }
        Some(normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt()))
    }

    /// Per-game score distribution as `(score, count)`.
    fn distribution(&self) -> [(f64, u64); 3] {
        [(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)]
    }
}

/// Game-pair result counts: the pentanomial model.
///
/// `counts[i]` is the number of pairs in which the engine under test scored
/// `i` half points over the two games, i.e. 0, ½, 1, 1½ or 2 points
/// (fishtest's LL, LD+DL, LW+DD+WL, DW+WD, WW).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pair counts indexed by half points scored in the pair.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Creates pair counts, indexed by half points scored in the pair.
    pub fn new(counts: [u64; 5]) -> Self {
        Self { counts }
    }

    /// Adds one pair given the results of its two games.
    pub fn record_pair(&mut self, first: GameResult, second: GameResult) {
        let index = usize::from(first.half_points() + second.half_points());
        self.counts[index] = self.counts[index].saturating_add(1);
    }

    /// Adds the counts of `other` (e.g. from another worker thread).
    pub fn merge(&mut self, other: &Pentanomial) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine = mine.saturating_add(theirs);
        }
    }

    /// Number of complete pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// Number of games in the complete pairs.
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// Mean score per game, or `None` before the first pair.
    pub fn score(&self) -> Option<f64> {
        mean_variance(&self.distribution()).map(|(_, mean, _)| mean)
    }

    /// Elo difference with a 95% confidence interval; `None` before the
    /// first pair.
    pub fn elo_estimate(&self) -> Option<EloEstimate> {
        self.elo_estimate_with_confidence(DEFAULT_CONFIDENCE)
    }

    /// Elo difference with a confidence interval at the given two-sided
    /// level in `(0, 1)`; `None` before the first pair or for an invalid
    /// level.
    pub fn elo_estimate_with_confidence(&self, confidence: f64) -> Option<EloEstimate> {
        estimate(&self.distribution(), confidence)
    }

    /// Likelihood of superiority from the normal approximation of the
    /// pair-score distribution, `Φ((mean - ½) / stderr)` (as fastchess does
    /// for pentanomial results). `None` before the second pair: one pair shows no spread.
    pub fn los(&self) -> Option<f64> {
        los_normal(&self.distribution())
    }

    /// Per-pair distribution of the score per game: `(i / 4, counts[i])`.
    fn distribution(&self) -> [(f64, u64); 5] {
        let mut dist = [(0.0, 0); 5];
        for (i, (slot, &count)) in dist.iter_mut().zip(&self.counts).enumerate() {
            *slot = (i as f64 / 4.0, count);
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::GameResult::{Draw, Loss, Win};
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn empty_counts_give_none() {
        assert_eq!(Wdl::default().score(), None);
        assert_eq!(Wdl::default().elo_estimate(), None);
        assert_eq!(Wdl::default().los(), None);
        assert_eq!(Wdl::default().draw_ratio(), None);
        assert_eq!(Pentanomial::default().elo_estimate(), None);
        assert_eq!(Pentanomial::default().los(), None);
    }

    #[test]
    fn invalid_confidence_gives_none() {
        let wdl = Wdl::new(10, 10, 10);
        assert!(wdl.elo_estimate_with_confidence(0.0).is_none());
        assert!(wdl.elo_estimate_with_confidence(1.0).is_none());
        assert!(wdl.elo_estimate_with_confidence(f64::NAN).is_none());
    }

    #[test]
    fn trinomial_error_bar_by_hand() {
        // W=30 D=40 L=30: mean 0.5, variance (30*0.25 + 30*0.25)/100 = 0.15,
        // stderr sqrt(0.0015) = 0.0387298, 95% half-width 0.0759091 on the
        // score scale -> upper Elo -400*log10(1/0.5759091 - 1) = 53.158.
        let est = Wdl::new(30, 40, 30).elo_estimate().unwrap();
        assert_eq!(est.elo, 0.0);
        assert!(close(est.score_stderr, 0.038_729_8, 1e-6));
        assert!(close(est.upper, 53.158, 0.001), "{est:?}");
        assert!(close(est.lower, -53.158, 0.001), "{est:?}");
        assert!(close(est.error_margin(), 53.158, 0.001));
    }

    #[test]
    fn sixty_percent_match() {
        // 60 wins, 40 losses -> score 0.6, the textbook +70.4 Elo.
        let wdl = Wdl::new(60, 0, 40);
        let est = wdl.elo_estimate().unwrap();
        assert!(close(est.elo, 70.44, 0.01));
        assert!(est.lower < est.elo && est.elo < est.upper);
        // LOS = Φ(20 / sqrt(100)) = Φ(2) = 0.97725.
        assert!(close(wdl.los().unwrap(), 0.977_25, 1e-5));
    }

    #[test]
    fn symmetric_results_mirror() {
        let a = Wdl::new(70, 20, 30).elo_estimate().unwrap();
        let b = Wdl::new(30, 20, 70).elo_estimate().unwrap();
        assert!(close(a.elo, -b.elo, 1e-9));
        assert!(close(a.lower, -b.upper, 1e-9));
        assert!(close(a.upper, -b.lower, 1e-9));
        let la = Wdl::new(70, 20, 30).los().unwrap();
        let lb = Wdl::new(30, 20, 70).los().unwrap();
        assert!(close(la + lb, 1.0, 1e-9));
        let p = Pentanomial::new([1, 5, 20, 9, 3]).elo_estimate().unwrap();
        let q = Pentanomial::new([3, 9, 20, 5, 1]).elo_estimate().unwrap();
        assert!(close(p.elo, -q.elo, 1e-9));
    }

    #[test]
    fn error_bar_shrinks_with_more_games() {
        let small = Wdl::new(40, 30, 30).elo_estimate().unwrap();
        let large = Wdl::new(4000, 3000, 3000).elo_estimate().unwrap();
        assert!(close(small.elo, large.elo, 1e-9));
        // 100x the games: about a tenth of the error bar.
        let ratio = small.error_margin() / large.error_margin();
        assert!(ratio > 9.0 && ratio < 11.0, "ratio {ratio}");
    }

    #[test]
    fn draw_ratio_and_counts() {
        let mut wdl = Wdl::default();
        for r in [Win, Draw, Draw, Loss] {
            wdl.record(r);
        }
        assert_eq!(wdl.games(), 4);
        assert_eq!(wdl.counts(), [1, 2, 1]);
        assert_eq!(wdl.draw_ratio(), Some(0.5));
        assert_eq!(Wdl::new(0, 5, 0).los(), Some(0.5));
    }

    #[test]
    fn pentanomial_is_tighter_on_correlated_pairs() {
        // The same 200 games seen two ways. Most pairs are W+L (each side
        // wins with the good colour of a lopsided opening): 1 point per pair.
        let pairs = std::iter::repeat((Win, Loss))
            .take(80)
            .chain(std::iter::repeat((Draw, Loss)).take(10))
            .chain(std::iter::repeat((Win, Draw)).take(10));
        let mut wdl = Wdl::default();
        let mut penta = Pentanomial::default();
        for (a, b) in pairs {
            wdl.record(a);
            wdl.record(b);
            penta.record_pair(a, b);
        }
        assert_eq!(wdl, Wdl::new(90, 20, 90));
        assert_eq!(penta.counts, [0, 10, 80, 10, 0]);
        assert_eq!(penta.games(), wdl.games());

        let tri = wdl.elo_estimate().unwrap();
        let pen = penta.elo_estimate().unwrap();
        assert_eq!(tri.score, pen.score);
        // By hand: trinomial var 0.225 over 200 games -> stderr 0.033541;
        // pentanomial var 0.0125 over 100 pairs -> stderr 0.011180.
        assert!(close(tri.score_stderr, 0.033_541, 1e-6));
        assert!(close(pen.score_stderr, 0.011_180, 1e-6));
        assert!(pen.error_margin() < tri.error_margin() / 2.5);
    }

    #[test]
    fn pentanomial_record_pair_indexes_by_half_points() {
        let mut p = Pentanomial::default();
        p.record_pair(Loss, Loss);
        p.record_pair(Draw, Loss);
        p.record_pair(Loss, Win);
        p.record_pair(Draw, Draw);
        p.record_pair(Win, Draw);
        p.record_pair(Win, Win);
        assert_eq!(p.counts, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
        assert_eq!(p.score(), Some(0.5));
        assert!(close(p.los().unwrap(), 0.5, 1e-6));
    }

    #[test]
    fn degenerate_results_do_not_produce_nan() {
        let all_wins = Wdl::new(10, 0, 0).elo_estimate().unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.upper, f64::INFINITY);
        assert_eq!(all_wins.lower, f64::INFINITY);
        // Φ(10 / sqrt(10)) = Φ(3.162): strong but not absolute evidence.
        assert!(close(Wdl::new(10, 0, 0).los().unwrap(), 0.999_217, 1e-6));
        let p = Pentanomial::new([0, 0, 7, 0, 0]);
        assert_eq!(p.los(), Some(0.5));
        let est = p.elo_estimate().unwrap();
        assert_eq!((est.elo, est.error_margin()), (0.0, 0.0));
        // A single lopsided game: the interval hits the edge of [0, 1].
        let one = Wdl::new(1, 0, 1).elo_estimate().unwrap();
        assert_eq!(one.lower, f64::NEG_INFINITY);
        assert_eq!(one.upper, f64::INFINITY);
    }

    #[test]
    fn a_single_pair_claims_no_precision() {
        // One pair (a loss and a draw) and nothing else: the point estimate stands, but
        // neither an error bar nor a likelihood of superiority can come from one sample.
        let one = Pentanomial::new([0, 1, 0, 0, 0]);
        let est = one.elo_estimate().unwrap();
        assert!(close(est.score, 0.25, 1e-12));
        assert!(est.elo.is_finite() && est.elo < 0.0);
        assert_eq!((est.lower, est.upper), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(one.los(), None);
        // A second pair gives a spread, and both come back.
        let two = Pentanomial::new([0, 1, 1, 0, 0]);
        assert!(two.elo_estimate().unwrap().error_margin().is_finite());
        assert!(two.los().unwrap() < 0.5);
    }

    #[test]
    fn saturating_counts_never_panic() {
        let mut wdl = Wdl::new(u64::MAX, u64::MAX, 0);
        wdl.record(Win);
        assert_eq!(wdl.games(), u64::MAX);
        let mut p = Pentanomial::new([u64::MAX; 5]);
        p.merge(&Pentanomial::new([1; 5]));
        assert_eq!(p.games(), u64::MAX);
        assert!(p.elo_estimate().is_some());
    }
}
