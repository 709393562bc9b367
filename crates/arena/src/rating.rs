//! Ratings of many players from their games, as Ordo and BayesElo compute them from
//! PGN files: the maximum-likelihood fit of logistic Elo, with error bars, on a scale
//! fixed by anchors (players whose published ratings are given) or by the average.
//!
//! The model is the one behind every Elo figure in [`stats`](crate::stats): player
//! `i` scores `1 / (1 + 10^((Rj − Ri)/400))` on average against `j`, a draw counting
//! half a win. The fitted ratings make every free player's expected score over its
//! games equal to its actual score (the likelihood equations), solved by Newton's
//! method. Their covariance is the inverse Fisher information times the dispersion
//! measured from the games: draws make results less spread than wins and losses
//! alone, so the bars shrink with the draw rate. For two players the fit is the
//! Elo difference and trinomial error bar of `bastion match`.
//!
//! A rating is finite only when the results tie it to the rest: a group that won
//! every game against everyone else it met (or lost every one) has no estimate,
//! and a group that met no anchored player has nothing to fix its level. Both are
//! reported as errors naming the players, rather than fitted to an arbitrary value.
//!
//! ```
//! use bastion_arena::rating::{FitOptions, RatingPool};
//! use bastion_arena::stats::GameResult;
//!
//! let mut pool = RatingPool::new();
//! for _ in 0..3 {
//!     pool.add_game("A", "B", GameResult::Win);
//! }
//! pool.add_game("B", "A", GameResult::Win);
//! // A scored 3/4 against B: +190.8 Elo.
//! let fit = pool.fit(&FitOptions { anchors: vec![("B".into(), 2000.0)], ..FitOptions::default() })?;
//! let a = fit.player("A").unwrap();
//! assert!((a.rating - 2190.85).abs() < 0.01);
//! # Ok::<(), bastion_arena::rating::RatingError>(())
//! ```

use crate::pgn::PgnGame;
use crate::stats::{elo_to_score, normal_quantile, GameResult, Wdl};
use std::collections::{BTreeMap, HashMap};

/// Natural logarithm of the odds per Elo: `ln 10 / 400`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Newton steps before giving up (a well-posed fit converges in under twenty).
const MAX_ITERATIONS: usize = 200;

/// The games of a pool of players, counted per pair.
#[derive(Clone, Debug, Default)]
pub struct RatingPool {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// For each pair `(i, j)` with `i < j`: the results of `i` against `j`.
    pairs: BTreeMap<(usize, usize), Wdl>,
}

/// How to fix the scale and the width of the error bars.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Players held at a given rating (a published list's figures).
    pub anchors: Vec<(String, f64)>,
    /// The average rating of all players when no anchor is given.
    pub average: f64,
    /// Two-sided confidence level of the error bars, e.g. 0.95.
    pub confidence: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions { anchors: Vec::new(), average: 0.0, confidence: 0.95 }
    }
}

/// One player's fitted rating and record.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayerRating {
    /// The player's name as it appears in the games.
    pub name: String,
    /// Fitted (or, for an anchor, given) rating.
    pub rating: f64,
    /// Half-width of the confidence interval of `rating`; `None` for an anchor.
    pub margin: Option<f64>,
    /// Games played.
    pub games: u64,
    /// Points scored (wins plus half the draws).
    pub points: f64,
    /// Games drawn.
    pub draws: u64,
    /// Average rating of the opponents, weighted by games.
    pub opponents: f64,
}

/// The fitted ratings of a pool, strongest first.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ratings {
    /// Every player, by rating from the highest.
    pub players: Vec<PlayerRating>,
    /// Games counted.
    pub games: u64,
    /// Measured spread of the results over the model's (1 when every game is
    /// decisive and the model fits; about 1 − draw rate otherwise).
    pub dispersion: f64,
    /// Confidence level of the margins.
    pub confidence: f64,
}

impl Ratings {
    /// The rating of the player called `name`.
    pub fn player(&self, name: &str) -> Option<&PlayerRating> {
        self.players.iter().find(|p| p.name == name)
    }
}

/// Why a pool's ratings cannot be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// No finished game between two different players.
    #[error("no finished game between two players to rate")]
    NoGames,
    /// An anchor names no player of the games.
    #[error("the anchor {0:?} is not a player in the games (players: {1})")]
    UnknownAnchor(String, String),
    /// An anchor is given twice or is not a finite number.
    #[error("the anchor {0:?} is given twice or has no finite rating")]
    BadAnchor(String),
    /// The confidence level is not strictly between 0 and 1.
    #[error("the confidence level must lie strictly between 0 and 1 (got {0})")]
    BadConfidence(f64),
    /// Groups of players never met (without anchors), or a group met no anchor.
    #[error("{0}")]
    Unconnected(String),
    /// Some players won every game against the others they met: no finite rating
    /// difference fits.
    #[error(
        "{} won every game against {}, so no finite rating difference fits; add games between \
         players closer in strength, or anchor a player on each side",
        list(winners),
        list(losers)
    )]
    Unbounded {
        /// The players who won every game against `losers`.
        winners: Vec<String>,
        /// Their opponents in those games.
        losers: Vec<String>,
    },
}

fn list(names: &[String]) -> String {
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}

impl RatingPool {
    /// An empty pool.
    pub fn new() -> Self {
        Self::default()
    }

    fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Counts one game, `result` from White's side. A game of a player against
    /// itself tells nothing about ratings and is not counted (returns false).
    pub fn add_game(&mut self, white: &str, black: &str, result: GameResult) -> bool {
        if white == black {
            return false;
        }
        let (w, b) = (self.id(white), self.id(black));
        let (key, result) = if w < b { ((w, b), result) } else { ((b, w), reversed(result)) };
        self.pairs.entry(key).or_default().record(result);
        true
    }

    /// Counts a game read from PGN by its `White` and `Black` tags and its result.
    /// Returns false, counting nothing, for an unfinished game (`*`), a missing or
    /// empty name, or a player against itself.
    pub fn add_pgn_game(&mut self, game: &PgnGame) -> bool {
        let (Some(white), Some(black)) = (game.header("White"), game.header("Black")) else {
            return false;
        };
        let (white, black) = (white.trim(), black.trim());
        if white.is_empty() || black.is_empty() {
            return false;
        }
        let result = match game.winner() {
            Some(Some(bastion_core::Color::White)) => GameResult::Win,
            Some(Some(bastion_core::Color::Black)) => GameResult::Loss,
            Some(None) => GameResult::Draw,
            None => return false,
        };
        self.add_game(white, black, result)
    }

    /// Number of players seen.
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// Number of games counted.
    pub fn games(&self) -> u64 {
        self.pairs.values().map(Wdl::games).sum()
    }

    /// Fits the ratings.
    pub fn fit(&self, options: &FitOptions) -> Result<Ratings, RatingError> {
        if !(options.confidence > 0.0 && options.confidence < 1.0) {
            return Err(RatingError::BadConfidence(options.confidence));
        }
        let n = self.names.len();
        if self.pairs.is_empty() {
            return Err(RatingError::NoGames);
        }
        let mut fixed: Vec<Option<f64>> = vec![None; n];
        for (name, rating) in &options.anchors {
            let Some(&i) = self.index.get(name) else {
                return Err(RatingError::UnknownAnchor(name.clone(), list(&self.names)));
            };
            if fixed[i].is_some() || !rating.is_finite() {
                return Err(RatingError::BadAnchor(name.clone()));
            }
            fixed[i] = Some(*rating);
        }
        let groups = self.groups();
        self.check_connected(&groups, &fixed)?;
        self.check_finite(&groups, &fixed)?;

        // Without anchors one player is pinned at 0 for the solve and the scale is shifted
        // to the requested average afterwards.
        let anchored = fixed.iter().any(Option::is_some);
        if !anchored {
            fixed[0] = Some(0.0);
        }
        let start = fixed.iter().flatten().sum::<f64>() / fixed.iter().flatten().count() as f64;
        let mut rating: Vec<f64> = fixed.iter().map(|f| f.unwrap_or(start)).collect();
        let free: Vec<usize> = (0..n).filter(|&i| fixed[i].is_none()).collect();
        let mut slot = vec![usize::MAX; n];
        for (k, &i) in free.iter().enumerate() {
            slot[i] = k;
        }

        for _ in 0..MAX_ITERATIONS {
            let (gradient, information) = self.derivatives(&rating, &slot, free.len());
            let Some(step) = solve(&information, &gradient) else { break };
            // Damped: a step of more than 400 Elo from a poor start overshoots.
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            let scale = if largest > 400.0 { 400.0 / largest } else { 1.0 };
            for (k, &i) in free.iter().enumerate() {
                rating[i] += step[k] * scale;
            }
            if largest < 1e-9 {
                break;
            }
        }
        let (_, information) = self.derivatives(&rating, &slot, free.len());
        let covariance = invert(&information).unwrap_or_else(|| vec![vec![f64::INFINITY; free.len()]; free.len()]);
        let dispersion = self.dispersion(&rating);
        let z = normal_quantile(0.5 + options.confidence / 2.0);

        // The covariance of two players' ratings; an anchored (or, without anchors, the
        // pinned) player's row is zero.
        let cov = |a: usize, b: usize| {
            if slot[a] == usize::MAX || slot[b] == usize::MAX {
                0.0
            } else {
                covariance[slot[a]][slot[b]]
            }
        };
        // Without anchors a rating is read against the average: Var(R_i − mean R).
        let row_sums: Vec<f64> = (0..n).map(|i| (0..n).map(|k| cov(i, k)).sum()).collect();
        let total: f64 = row_sums.iter().sum();
        let variance = |i: usize| -> Option<f64> {
            if anchored {
                (slot[i] != usize::MAX).then(|| cov(i, i))
            } else {
                let nf = n as f64;
                Some((cov(i, i) - 2.0 * row_sums[i] / nf + total / (nf * nf)).max(0.0))
            }
        };
        if !anchored {
            let shift = options.average - rating.iter().sum::<f64>() / n as f64;
            rating.iter_mut().for_each(|r| *r += shift);
        }

        // Each player's record and the games-weighted sum of its opponents' ratings.
        let mut records = vec![(Wdl::default(), 0.0); n];
        for (&(i, j), wdl) in &self.pairs {
            let games = wdl.games() as f64;
            records[i].0.merge(wdl);
            records[i].1 += games * rating[j];
            records[j].0.merge(&Wdl::new(wdl.losses, wdl.draws, wdl.wins));
            records[j].1 += games * rating[i];
        }
        let mut players: Vec<PlayerRating> = records
            .iter()
            .enumerate()
            .map(|(i, (wdl, against))| PlayerRating {
                name: self.names[i].clone(),
                rating: rating[i],
                margin: variance(i).map(|v| z * (dispersion * v).sqrt()),
                games: wdl.games(),
                points: points(wdl),
                draws: wdl.draws,
                opponents: against / wdl.games().max(1) as f64,
            })
            .collect();
        players.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        Ok(Ratings { players, games: self.games(), dispersion, confidence: options.confidence })
    }

    /// The log-likelihood's gradient over the free players and its information
    /// matrix (the negated Hessian), both in rating units.
    fn derivatives(&self, rating: &[f64], slot: &[usize], free: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut gradient = vec![0.0; free];
        let mut info = vec![vec![0.0; free]; free];
        for (&(i, j), c) in &self.pairs {
            let games = c.games() as f64;
            let points = points(c);
            let p = elo_to_score(rating[i] - rating[j]);
            let g = C * (points - games * p);
            let h = C * C * games * p * (1.0 - p);
            let (si, sj) = (slot[i], slot[j]);
            if si != usize::MAX {
                gradient[si] += g;
                info[si][si] += h;
            }
            if sj != usize::MAX {
                gradient[sj] -= g;
                info[sj][sj] += h;
            }
            if si != usize::MAX && sj != usize::MAX {
                info[si][sj] -= h;
                info[sj][si] -= h;
            }
        }
        (gradient, info)
    }

    /// Pearson's dispersion: the squared residuals of the scores over their
    /// variance under the model (a draw's half point is closer to the mean).
    fn dispersion(&self, rating: &[f64]) -> f64 {
        let (mut residual, mut model) = (0.0, 0.0);
        for (&(i, j), c) in &self.pairs {
            let p = elo_to_score(rating[i] - rating[j]);
            let (w, d, l) = (c.wins as f64, c.draws as f64, c.losses as f64);
            residual += w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p * p;
            model += (w + d + l) * p * (1.0 - p);
        }
        if model > 0.0 {
            residual / model
        } else {
            1.0
        }
    }

    /// Players linked by games (ignoring who won), as groups of indices.
    fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.names.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(i, j) in self.pairs.keys() {
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a] = b;
        }
        let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in 0..n {
            let r = root(&mut parent, i);
            by_root.entry(r).or_default().push(i);
        }
        by_root.into_values().collect()
    }

    fn names_of(&self, group: &[usize]) -> Vec<String> {
        let mut names: Vec<String> = group.iter().map(|&i| self.names[i].clone()).collect();
        names.sort();
        names
    }

    /// Every group of players who met must hold an anchor; without anchors there
    /// must be one group.
    fn check_connected(&self, groups: &[Vec<usize>], fixed: &[Option<f64>]) -> Result<(), RatingError> {
        if fixed.iter().all(Option::is_none) {
            if groups.len() > 1 {
                let parts: Vec<String> = groups.iter().map(|g| format!("[{}]", list(&self.names_of(g)))).collect();
                return Err(RatingError::Unconnected(format!(
                    "the players form {} groups that never met: {}; rate them separately or anchor one player in each",
                    groups.len(),
                    parts.join(", ")
                )));
            }
            return Ok(());
        }
        if let Some(g) = groups.iter().find(|g| g.iter().all(|&i| fixed[i].is_none())) {
            return Err(RatingError::Unconnected(format!(
                "{} met no anchored player, so nothing fixes {} level; anchor one of them",
                list(&self.names_of(g)),
                if g.len() == 1 { "its" } else { "their" }
            )));
        }
        Ok(())
    }

    /// The fit has a finite maximum only if every player can be reached from every
    /// other along "scored at least a draw against" links, the anchored players
    /// counting as one (their differences are given). Otherwise some group won every
    /// game against the players outside it that it met: it is named with them.
    fn check_finite(&self, groups: &[Vec<usize>], fixed: &[Option<f64>]) -> Result<(), RatingError> {
        let n = self.names.len();
        // Node of each player: anchored players share node `n`.
        let node = |i: usize| if fixed[i].is_some() { n } else { i };
        let mut scored: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let mut met: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (&(i, j), c) in &self.pairs {
            let (a, b) = (node(i), node(j));
            if a == b {
                continue;
            }
            met[a].push(b);
            met[b].push(a);
            if c.wins + c.draws > 0 {
                scored[a].push(b);
            }
            if c.losses + c.draws > 0 {
                scored[b].push(a);
            }
        }
        let mut conceded: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (a, targets) in scored.iter().enumerate() {
            for &b in targets {
                conceded[b].push(a);
            }
        }
        for group in groups {
            let mut nodes: Vec<usize> = group.iter().map(|&i| node(i)).collect();
            nodes.sort_unstable();
            nodes.dedup();
            let names = |nodes: &[usize]| -> Vec<String> {
                let mut out = Vec::new();
                for &v in nodes {
                    if v == n {
                        out.extend(group.iter().filter(|&&i| fixed[i].is_some()).map(|&i| self.names[i].clone()));
                    } else {
                        out.push(self.names[v].clone());
                    }
                }
                out.sort();
                out.dedup();
                out
            };

            // Strongly connected components: a node's component is what it reaches
            // both ways (groups are small; quadratic is fine).
            let mut done: Vec<bool> = vec![false; n + 1];
            let mut components: Vec<Vec<usize>> = Vec::new();
            for &v in &nodes {
                if done[v] {
                    continue;
                }
                let (forward, backward) = (reach(&scored, v), reach(&conceded, v));
                let component: Vec<usize> = nodes.iter().copied().filter(|&w| forward[w] && backward[w]).collect();
                for &w in &component {
                    done[w] = true;
                }
                components.push(component);
            }
            if components.len() < 2 {
                continue;
            }
            // A component that nobody outside scored against won every game with the
            // outsiders it met; one that scored against no outsider lost them all.
            // Name the smaller such story.
            let mut best: Option<(Vec<String>, Vec<String>)> = None;
            for component in &components {
                let inside = |w: &usize| component.contains(w);
                let outsiders: Vec<usize> =
                    component.iter().flat_map(|&v| met[v].iter().copied()).filter(|w| !inside(w)).collect();
                let won_all = component.iter().all(|&v| conceded[v].iter().all(inside));
                let lost_all = component.iter().all(|&v| scored[v].iter().all(inside));
                let story = if won_all {
                    Some((names(component), names(&outsiders)))
                } else if lost_all {
                    Some((names(&outsiders), names(component)))
                } else {
                    None
                };
                if let Some(s) = story {
                    let size = |s: &(Vec<String>, Vec<String>)| s.0.len() + s.1.len();
                    if best.as_ref().map_or(true, |b| size(&s) < size(b)) {
                        best = Some(s);
                    }
                }
            }
            let (winners, losers) = best.expect("a condensation has a source component");
            return Err(RatingError::Unbounded { winners, losers });
        }
        Ok(())
    }
}

/// The nodes reachable from `start` along `links`.
fn reach(links: &[Vec<usize>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; links.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(v) = stack.pop() {
        for &w in &links[v] {
            if !seen[w] {
                seen[w] = true;
                stack.push(w);
            }
        }
    }
    seen
}

/// The same game seen from the other side.
fn reversed(result: GameResult) -> GameResult {
    match result {
        GameResult::Win => GameResult::Loss,
        GameResult::Draw => GameResult::Draw,
        GameResult::Loss => GameResult::Win,
    }
}

/// Points scored: wins plus half the draws.
fn points(wdl: &Wdl) -> f64 {
    wdl.wins as f64 + wdl.draws as f64 / 2.0
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a.iter().zip(b).map(|(row, &v)| row.iter().copied().chain([v]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let (upper, lower) = m.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for row in lower.iter_mut() {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (target, source) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *target -= f * source;
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][n] - s) / m[row][row];
    }
    Some(x)
}

/// The inverse of `a`, column by column; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inverse = vec![vec![0.0; n]; n];
    for col in 0..n {
        let mut unit = vec![0.0; n];
        unit[col] = 1.0;
        let x = solve(a, &unit)?;
        for row in 0..n {
            inverse[row][col] = x[row];
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{score_to_elo, Wdl};
    use proptest::prelude::*;
    use GameResult::{Draw, Loss, Win};

    fn play(pool: &mut RatingPool, white: &str, black: &str, results: &[(GameResult, u32)]) {
        for &(r, count) in results {
            for _ in 0..count {
                pool.add_game(white, black, r);
            }
        }
    }

    fn anchored(name: &str, rating: f64) -> FitOptions {
        FitOptions { anchors: vec![(name.to_string(), rating)], ..FitOptions::default() }
    }

    #[test]
    fn two_players_give_the_match_elo_and_its_trinomial_error() {
        let mut pool = RatingPool::new();
        // A plays White in half the games: colours do not enter the model.
        play(&mut pool, "A", "B", &[(Win, 30), (Draw, 40), (Loss, 10)]);
        play(&mut pool, "B", "A", &[(Loss, 25), (Draw, 45), (Win, 10)]);
        let fit = pool.fit(&anchored("B", 3000.0)).unwrap();
        let wdl = Wdl::new(55, 85, 20);
        let elo = wdl.elo_estimate().unwrap();
        let a = fit.player("A").unwrap();
        assert!((a.rating - 3000.0 - score_to_elo(wdl.score().unwrap())).abs() < 1e-6);
        // The match report's interval is built on the score scale, so it is slightly
        // asymmetric; the fit's is symmetric on the Elo scale: they agree to a few per cent.
        let margin = a.margin.unwrap();
        assert!((margin / elo.error_margin() - 1.0).abs() < 0.03, "{margin} vs {}", elo.error_margin());
        assert_eq!(fit.player("B").unwrap().margin, None);
        assert_eq!((a.games, a.draws, a.points), (160, 85, 97.5));
        assert_eq!(fit.players[0].name, "A");
    }

    #[test]
    fn ratings_chain_through_a_common_opponent() {
        let mut pool = RatingPool::new();
        play(&mut pool, "A", "B", &[(Win, 3), (Loss, 1)]);
        play(&mut pool, "B", "C", &[(Win, 3), (Loss, 1)]);
        let fit = pool.fit(&FitOptions::default()).unwrap();
        let r = |n: &str| fit.player(n).unwrap().rating;
        let step = score_to_elo(0.75);
        assert!((r("A") - r("B") - step).abs() < 1e-6 && (r("B") - r("C") - step).abs() < 1e-6);
        // Without anchors the scale is centred on the average.
        assert!((r("A") + r("B") + r("C")).abs() < 1e-6);
        let shifted = pool.fit(&FitOptions { average: 2500.0, ..FitOptions::default() }).unwrap();
        assert!((shifted.player("B").unwrap().rating - 2500.0).abs() < 1e-6);
        // B is known best: it is compared with both others.
        let m = |n: &str| fit.player(n).unwrap().margin.unwrap();
        assert!(m("B") < m("A") && m("B") < m("C"));
    }

    #[test]
    fn two_anchors_pull_a_player_between_their_implied_ratings() {
        let mut pool = RatingPool::new();
        play(&mut pool, "X", "P", &[(Win, 6), (Draw, 8), (Loss, 6)]); // X even with P
        play(&mut pool, "X", "Q", &[(Win, 10), (Draw, 8), (Loss, 2)]); // X 70 % against Q
        let fit = pool
            .fit(&FitOptions { anchors: vec![("P".into(), 3000.0), ("Q".into(), 2900.0)], ..FitOptions::default() })
            .unwrap();
        let x = fit.player("X").unwrap().rating;
        // Alone, P implies 3000 and Q implies 2900 + 147 = 3047.
        assert!(x > 3000.0 && x < 2900.0 + score_to_elo(0.7), "{x}");
    }

    #[test]
    fn results_that_fix_no_rating_are_errors_that_name_the_players() {
        let mut pool = RatingPool::new();
        play(&mut pool, "Strong", "Weak", &[(Win, 5)]);
        play(&mut pool, "Weak", "Other", &[(Draw, 3), (Win, 1)]);
        match pool.fit(&FitOptions::default()) {
            Err(RatingError::Unbounded { winners, losers }) => {
                assert_eq!((winners, losers), (vec!["Strong".to_string()], vec!["Weak".to_string()]));
            }
            other => panic!("{other:?}"),
        }
        // Anchoring both ends of the perfect score makes the rest finite.
        let fit = pool
            .fit(&FitOptions {
                anchors: vec![("Strong".into(), 3000.0), ("Weak".into(), 2500.0)],
                ..FitOptions::default()
            })
            .unwrap();
        assert!(fit.player("Other").unwrap().rating < 2500.0);

        let mut apart = RatingPool::new();
        play(&mut apart, "A", "B", &[(Draw, 2)]);
        play(&mut apart, "C", "D", &[(Draw, 2)]);
        let e = apart.fit(&FitOptions::default()).unwrap_err();
        assert!(matches!(e, RatingError::Unconnected(_)) && e.to_string().contains("2 groups"), "{e}");
        let e = apart.fit(&anchored("A", 2000.0)).unwrap_err();
        assert!(e.to_string().contains("\"C\", \"D\" met no anchored player"), "{e}");
        assert!(matches!(apart.fit(&anchored("Z", 2000.0)), Err(RatingError::UnknownAnchor(..))));
        assert!(matches!(RatingPool::new().fit(&FitOptions::default()), Err(RatingError::NoGames)));
        let bad = FitOptions { confidence: 1.0, ..FitOptions::default() };
        assert!(matches!(apart.fit(&bad), Err(RatingError::BadConfidence(_))));
    }

    #[test]
    fn pgn_games_count_by_their_tags_and_result() {
        let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"B\"]\n[Black \"A\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
                    [White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n\
                    [White \"\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. c4 0-1\n";
        let mut pool = RatingPool::new();
        let mut counted = 0;
        crate::pgn::for_each_game(text.as_bytes(), |g| {
            counted += usize::from(pool.add_pgn_game(&g));
            true
        })
        .unwrap();
        assert_eq!((counted, pool.games(), pool.players()), (2, 2, 2));
        assert!(!pool.add_game("A", "A", Win));
        let fit = pool.fit(&FitOptions::default()).unwrap();
        assert!((fit.player("A").unwrap().points - 1.5).abs() < 1e-12);
    }

    proptest! {
        /// Every free player's expected score equals its actual score at the fit, and
        /// the average is where it was asked to be.
        #[test]
        fn the_fit_solves_the_likelihood_equations(
            counts in proptest::collection::vec((0u32..6, 1u32..6, 0u32..6), 6),
            average in -1000.0f64..3000.0,
        ) {
            let names = ["A", "B", "C", "D"];
            let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
            let mut pool = RatingPool::new();
            for (&(i, j), &(w, d, l)) in pairs.iter().zip(&counts) {
                play(&mut pool, names[i], names[j], &[(Win, w), (Draw, d), (Loss, l)]);
            }
            let fit = pool.fit(&FitOptions { average, ..FitOptions::default() }).unwrap();
            let r = |n: &str| fit.player(n).unwrap().rating;
            for (k, name) in names.iter().enumerate() {
                let mut expected_points = 0.0;
                for (&(i, j), &(w, d, l)) in pairs.iter().zip(&counts) {
                    let games = f64::from(w + d + l);
                    if i == k {
                        expected_points += games * elo_to_score(r(name) - r(names[j]));
                    } else if j == k {
                        expected_points += games * elo_to_score(r(name) - r(names[i]));
                    }
                }
                prop_assert!((expected_points - fit.player(name).unwrap().points).abs() < 1e-6);
                prop_assert!(fit.player(name).unwrap().margin.unwrap().is_finite());
            }
            let mean = names.iter().map(|n| r(n)).sum::<f64>() / 4.0;
            prop_assert!((mean - average).abs() < 1e-6);
        }
    }
}
