//! Paired comparison of two versions of an engine by their games against the same opponent:
//! game by game on the same opening and colour.
//!
//! Two matches of 200 games each against a strong opponent have error bars of ±35 Elo or
//! more, wider than most changes worth measuring. When both versions played the same
//! openings with the same colours, much of that noise is the openings' (a lopsided opening
//! is lost by both), and it cancels in the difference of each pair of games: the candidate's
//! points minus the base version's, on the same opening and colour. The mean of those
//! differences, with the standard error of the mean, says how much the candidate gains a
//! game. Each version's games may come from separate runs; they are matched by the opening
//! (the start position and the book moves before the first searched one, without the move
//! counters), the tested engine's colour and the opponent's name, the k-th game of a key in
//! one set with the k-th in the other.

use crate::pgn::PgnGame;
use crate::stats::normal_quantile;
use crate::time_use::MoveTiming;
use bastion_core::Color;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Why two sets of games cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairedError {
    /// The engine under test is not named and cannot be told from the games.
    #[error("{0}")]
    Names(String),
    /// No finished game of one set has a partner in the other.
    #[error("no game of {base} has a partner among the games of {candidate} (same opening, colour and opponent)")]
    NoPairs {
        /// The base version's name.
        base: String,
        /// The candidate's name.
        candidate: String,
    },
    /// The confidence level is outside (0, 1).
    #[error("confidence must lie strictly between 0 and 1 (got {0})")]
    Confidence(String),
}

/// One opening and colour both versions played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamePair {
    /// The opening: the position after the book moves (FEN without the move counters).
    pub fen: String,
    /// The tested engine's colour (`true` for White).
    pub engine_white: bool,
    /// The opponent.
    pub opponent: String,
    /// The base version's points in its game (0, ½ or 1).
    pub base: f64,
    /// The candidate's points.
    pub candidate: f64,
}

/// The mean of a set of differences with its standard error and interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeanDifference {
    /// Samples (games, or openings played with both colours).
    pub samples: usize,
    /// The candidate's gain, in points a game.
    pub mean: f64,
    /// The standard error of the mean (sample standard deviation over √n); `None` below
    /// two samples.
    pub std_error: Option<f64>,
    /// The interval `mean ± z·std_error` at the comparison's confidence.
    pub interval: Option<(f64, f64)>,
}

/// Two versions' games side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedComparison {
    /// The base version's name in its games.
    pub base: String,
    /// The candidate's name in its games.
    pub candidate: String,
    /// The games matched, in the order of the candidate's games.
    pub pairs: Vec<GamePair>,
    /// Finished games of the base version without a partner.
    pub base_unpaired: usize,
    /// Finished games of the candidate without a partner.
    pub candidate_unpaired: usize,
    /// Two-sided confidence of the intervals.
    pub confidence: f64,
    /// The gain a game over all matched games.
    pub by_game: MeanDifference,
    /// The gain a game, with each opening played with both colours by both versions as one
    /// sample (the two games of an opening are correlated; this is the pentanomial view).
    pub by_opening: MeanDifference,
}

/// A finished game from the tested engine's side: key and points.
type Keyed = ((String, bool, String), f64);

/// The finished games of `engine` in `games`, keyed by opening, colour and opponent.
fn keyed(games: &[PgnGame], engine: &str) -> Vec<Keyed> {
    games
        .iter()
        .filter_map(|g| {
            let winner = g.winner()?;
            let (white, black) = (g.header("White")?, g.header("Black")?);
            let engine_white = match (white == engine, black == engine) {
                (true, false) => true,
                (false, true) => false,
                _ => return None,
            };
            let opponent = if engine_white { black } else { white };
            let colour = if engine_white { Color::White } else { Color::Black };
            let points = match winner {
                None => 0.5,
                Some(c) if c == colour => 1.0,
                Some(_) => 0.0,
            };
            // The opening is the start position and the leading moves no engine searched
            // (`book`, or no comment: openings given as PGN moves), so that games from PGN
            // openings, which all start from the initial position, are told apart. A game with
            // no searched move at all (no comments anywhere) keys on its start position. The
            // move counters are left out: other tools may number the same opening differently.
            let book = g.comments.iter().take_while(|c| MoveTiming::from_comment(c).is_none()).count();
            let book = if book == g.moves.len() { 0 } else { book };
            let opening = g.moves[..book].iter().fold(g.start.clone(), |pos, &m| pos.play(m));
            let fen = opening.fen().split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            Some(((fen, engine_white, opponent.to_string()), points))
        })
        .collect()
}

/// The players of a set of games.
fn players(games: &[PgnGame]) -> BTreeSet<String> {
    games.iter().flat_map(|g| ["White", "Black"].map(|t| g.header(t).unwrap_or("?").to_string())).collect()
}

/// The tested engine of a set whose name was not given: the one player that is not in the
/// other set.
fn infer(own: &BTreeSet<String>, other: &BTreeSet<String>, which: &str) -> Result<String, PairedError> {
    let mine: Vec<&String> = own.difference(other).collect();
    match mine.as_slice() {
        [one] => Ok((*one).clone()),
        _ => Err(PairedError::Names(format!(
            "cannot tell the {which} engine from its games (players {}; not among the other set's: {}): name it",
            own.iter().cloned().collect::<Vec<_>>().join(", "),
            if mine.is_empty() {
                "none".to_string()
            } else {
                mine.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            }
        ))),
    }
}

fn mean_difference(diffs: &[f64], z: f64) -> MeanDifference {
    let n = diffs.len();
    let mean = if n > 0 { diffs.iter().sum::<f64>() / n as f64 } else { 0.0 };
    let std_error = (n >= 2).then(|| {
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        (var / n as f64).sqrt()
    });
    MeanDifference { samples: n, mean, std_error, interval: std_error.map(|se| (mean - z * se, mean + z * se)) }
}

impl PairedComparison {
    /// Compares the `candidate` version's games with the `base` version's. The engines are
    /// named by their `White`/`Black` tags; a name left out is the one player of its set
    /// that does not appear in the other (the opponents being common to both).
    pub fn new(
        base_games: &[PgnGame],
        base: Option<&str>,
        candidate_games: &[PgnGame],
        candidate: Option<&str>,
        confidence: f64,
    ) -> Result<PairedComparison, PairedError> {
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(PairedError::Confidence(confidence.to_string()));
        }
        let (base_players, cand_players) = (players(base_games), players(candidate_games));
        let base = match base {
            Some(b) => b.to_string(),
            None => infer(&base_players, &cand_players, "base")?,
        };
        let candidate = match candidate {
            Some(c) => c.to_string(),
            None => infer(&cand_players, &base_players, "candidate")?,
        };
        for (name, set, which) in [(&base, &base_players, "base"), (&candidate, &cand_players, "candidate")] {
            if !set.contains(name) {
                return Err(PairedError::Names(format!("{name:?} plays no game of the {which} set")));
            }
        }
        // The k-th base game of a key waits for the k-th candidate game of that key.
        let mut waiting: BTreeMap<(String, bool, String), std::collections::VecDeque<f64>> = BTreeMap::new();
        let base_keyed = keyed(base_games, &base);
        for (key, points) in &base_keyed {
            waiting.entry(key.clone()).or_default().push_back(*points);
        }
        let mut pairs = Vec::new();
        let mut candidate_unpaired = 0;
        for ((fen, engine_white, opponent), points) in keyed(candidate_games, &candidate) {
            let key = (fen, engine_white, opponent);
            match waiting.get_mut(&key).and_then(|q| q.pop_front()) {
                Some(b) => {
                    let (fen, engine_white, opponent) = key;
                    pairs.push(GamePair { fen, engine_white, opponent, base: b, candidate: points });
                }
                None => candidate_unpaired += 1,
            }
        }
        if pairs.is_empty() {
            return Err(PairedError::NoPairs { base, candidate });
        }
        let base_unpaired = base_keyed.len() - pairs.len();
        let z = normal_quantile(0.5 + confidence / 2.0);
        let by_game = mean_difference(&pairs.iter().map(|p| p.candidate - p.base).collect::<Vec<_>>(), z);
        // Openings (and opponents) played with both colours: the pair's gain over two games.
        let mut by_key: BTreeMap<(&str, &str), [Vec<f64>; 2]> = BTreeMap::new();
        for p in &pairs {
            by_key.entry((&p.fen, &p.opponent)).or_default()[usize::from(p.engine_white)].push(p.candidate - p.base);
        }
        let per_opening: Vec<f64> =
            by_key.values().flat_map(|[black, white]| white.iter().zip(black).map(|(w, b)| (w + b) / 2.0)).collect();
        let by_opening = mean_difference(&per_opening, z);
        Ok(PairedComparison {
            base,
            candidate,
            pairs,
            base_unpaired,
            candidate_unpaired,
            confidence,
            by_game,
            by_opening,
        })
    }

    /// The base version's and the candidate's points over the matched games.
    pub fn points(&self) -> (f64, f64) {
        self.pairs.iter().fold((0.0, 0.0), |(b, c), p| (b + p.base, c + p.candidate))
    }

    /// The comparison as report lines.
    pub fn report(&self) -> String {
        let n = self.pairs.len();
        let (b, c) = self.points();
        let pct = |x: f64| 100.0 * x / n as f64;
        let mut s = format!(
            "{n} games paired (same opening, colour and opponent): {} {b}/{n} ({:.2} %), {} {c}/{n} ({:.2} %)\n",
            self.base,
            pct(b),
            self.candidate,
            pct(c)
        );
        if self.base_unpaired + self.candidate_unpaired > 0 {
            s.push_str(&format!(
                "not paired: {} games of {}, {} of {}\n",
                self.base_unpaired, self.base, self.candidate_unpaired, self.candidate
            ));
        }
        let conf = 100.0 * self.confidence;
        for (label, d) in [("by game", &self.by_game), ("by opening, both colours", &self.by_opening)] {
            if d.samples == 0 {
                continue;
            }
            s.push_str(&format!(
                "{} − {}, {label} ({}): {:+.2} % a game",
                self.candidate,
                self.base,
                d.samples,
                100.0 * d.mean
            ));
            if let (Some(se), Some((lo, hi))) = (d.std_error, d.interval) {
                s.push_str(&format!(
                    ", standard error {:.2} %, {conf:.0} % interval {:+.2} % … {:+.2} %",
                    100.0 * se,
                    100.0 * lo,
                    100.0 * hi
                ));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game between `white` and `black` from the `n`-th of a few openings.
    fn game(opening: usize, white: &str, black: &str, result: &str) -> PgnGame {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
        ];
        let pgn = format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[FEN \"{}\"]\n[SetUp \"1\"]\n\n{result}\n",
            fens[opening]
        );
        crate::pgn::read_first_game(pgn.as_bytes()).unwrap().unwrap()
    }

    #[test]
    fn games_pair_by_opening_colour_and_opponent() {
        let base = vec![
            game(0, "old", "sf", "0-1"),
            game(0, "sf", "old", "1/2-1/2"),
            game(1, "old", "sf", "1/2-1/2"),
            game(1, "sf", "old", "1-0"),
            game(2, "old", "sf", "*"),
        ];
        // The candidate's games in another order, one opening more, one game unfinished.
        let cand = vec![
            game(1, "sf", "new", "1/2-1/2"),
            game(0, "new", "sf", "1-0"),
            game(0, "sf", "new", "1/2-1/2"),
            game(1, "new", "sf", "1/2-1/2"),
            game(2, "sf", "new", "1-0"),
        ];
        let c = PairedComparison::new(&base, None, &cand, None, 0.95).unwrap();
        assert_eq!((c.base.as_str(), c.candidate.as_str()), ("old", "new"));
        assert_eq!(c.pairs.len(), 4);
        assert_eq!((c.base_unpaired, c.candidate_unpaired), (0, 1));
        assert_eq!(c.points(), (1.0, 2.5));
        // Differences +0.5, +1, 0, 0: mean 0.375.
        assert_eq!(c.by_game.mean, 0.375);
        let se = c.by_game.std_error.unwrap();
        assert!((se - (0.229_166_666_666_666_66f64 / 4.0).sqrt()).abs() < 1e-12, "{se}");
        // By opening: (+1 + 0)/2 and (+0.5 + 0)/2.
        assert_eq!(c.by_opening.samples, 2);
        assert_eq!(c.by_opening.mean, 0.375);
        let report = c.report();
        assert!(
            report.starts_with(
                "4 games paired (same opening, colour and opponent): old 1/4 (25.00 %), new 2.5/4 (62.50 %)\n"
            ),
            "{report}"
        );
        assert!(report.contains("not paired: 0 games of old, 1 of new\n"), "{report}");
        assert!(report.contains("new − old, by game (4): +37.50 % a game, standard error "), "{report}");
    }

    #[test]
    fn repeated_openings_pair_in_order_and_names_can_be_given() {
        // The same opening and colour twice in each set (two rounds): first with first.
        let base = vec![game(0, "v1", "sf", "1-0"), game(0, "v1", "sf", "0-1")];
        let cand = vec![game(0, "v1", "sf", "1-0"), game(0, "v1", "sf", "1-0")];
        // Both sets name the engine alike: it must be named.
        let err = PairedComparison::new(&base, None, &cand, None, 0.95).unwrap_err();
        assert!(err.to_string().contains("cannot tell the base engine"), "{err}");
        let c = PairedComparison::new(&base, Some("v1"), &cand, Some("v1"), 0.95).unwrap();
        assert_eq!(c.pairs.iter().map(|p| (p.base, p.candidate)).collect::<Vec<_>>(), [(1.0, 1.0), (0.0, 1.0)]);
        assert_eq!(c.by_opening.samples, 0);
        assert!(!c.report().contains("by opening"));
    }

    #[test]
    fn move_counters_do_not_split_an_opening() {
        let base = vec![game(0, "old", "sf", "1-0")];
        let pgn = base[0].to_pgn().replace("old", "new").replace(" 0 1\"]", " 3 12\"]").replace("1-0", "0-1");
        let cand = vec![crate::pgn::read_first_game(pgn.as_bytes()).unwrap().unwrap()];
        assert_ne!(cand[0].start.fen(), base[0].start.fen());
        let c = PairedComparison::new(&base, None, &cand, None, 0.95).unwrap();
        assert_eq!(c.points(), (1.0, 0.0));
    }

    #[test]
    fn openings_given_as_moves_are_told_apart() {
        // From the initial position with two book moves, then searched moves.
        let g = |first: &str, white: &str, result: &str| {
            let pgn = format!(
                "[White \"{white}\"]\n[Black \"sf\"]\n[Result \"{result}\"]\n\n\
                 1. {first} {{book}} e5 {{book}} 2. Nf3 {{+0.20/10 0.100s}} Nc6 {{-0.20/10 0.100s}} {result}\n"
            );
            crate::pgn::read_first_game(pgn.as_bytes()).unwrap().unwrap()
        };
        let base = vec![g("e4", "old", "1-0"), g("d4", "old", "0-1")];
        let cand = vec![g("d4", "new", "1/2-1/2"), g("e4", "new", "1/2-1/2")];
        let c = PairedComparison::new(&base, None, &cand, None, 0.95).unwrap();
        let by_fen: Vec<(f64, f64)> = c.pairs.iter().map(|p| (p.base, p.candidate)).collect();
        // d4 first in the candidate's file: paired with the base's d4 game (lost), not its e4.
        assert_eq!(by_fen, [(0.0, 0.5), (1.0, 0.5)]);
        assert!(c.pairs[0].fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/3P4/"), "{}", c.pairs[0].fen);
    }

    proptest::proptest! {
        /// Any two sets of games: every finished game of each engine is paired or counted as
        /// unpaired, the points add up, and the mean lies in its interval within ±1.
        #[test]
        fn every_game_is_paired_or_counted(
            base in proptest::collection::vec((0usize..3, proptest::bool::ANY, 0usize..4), 1..30),
            cand in proptest::collection::vec((0usize..3, proptest::bool::ANY, 0usize..4), 1..30),
        ) {
            let results = ["1-0", "0-1", "1/2-1/2", "*"];
            let make = |games: &[(usize, bool, usize)], me: &str| -> Vec<PgnGame> {
                games
                    .iter()
                    .map(|&(o, white, r)| {
                        if white { game(o, me, "sf", results[r]) } else { game(o, "sf", me, results[r]) }
                    })
                    .collect()
            };
            let finished = |games: &[(usize, bool, usize)]| games.iter().filter(|g| g.2 < 3).count();
            let (b, c) = (make(&base, "old"), make(&cand, "new"));
            match PairedComparison::new(&b, None, &c, None, 0.95) {
                Ok(cmp) => {
                    proptest::prop_assert_eq!(cmp.pairs.len() + cmp.base_unpaired, finished(&base));
                    proptest::prop_assert_eq!(cmp.pairs.len() + cmp.candidate_unpaired, finished(&cand));
                    let (pb, pc) = cmp.points();
                    proptest::prop_assert!((cmp.by_game.mean - (pc - pb) / cmp.pairs.len() as f64).abs() < 1e-9);
                    for d in [cmp.by_game, cmp.by_opening] {
                        proptest::prop_assert!(d.mean.abs() <= 1.0);
                        if let Some((lo, hi)) = d.interval {
                            proptest::prop_assert!(lo <= d.mean && d.mean <= hi);
                        }
                    }
                    proptest::prop_assert!(!cmp.report().is_empty());
                }
                Err(PairedError::NoPairs { .. }) => {}
                Err(e) => proptest::prop_assert!(false, "{e}"),
            }
        }
    }

    #[test]
    fn bad_comparisons_are_refused_with_a_reason() {
        let base = vec![game(0, "old", "sf", "1-0")];
        let cand = vec![game(1, "new", "sf", "1-0")];
        let err = PairedComparison::new(&base, None, &cand, None, 0.95).unwrap_err();
        assert_eq!(err, PairedError::NoPairs { base: "old".into(), candidate: "new".into() });
        let err = PairedComparison::new(&base, Some("nobody"), &cand, None, 0.95).unwrap_err();
        assert!(err.to_string().contains("\"nobody\" plays no game of the base set"), "{err}");
        for bad in [0.0, 1.0, f64::NAN] {
            assert!(matches!(PairedComparison::new(&base, None, &cand, None, bad), Err(PairedError::Confidence(_))));
        }
        // A single pair: a mean, no error bar.
        let c = PairedComparison::new(&base, None, &[game(0, "new", "sf", "1/2-1/2")], None, 0.95).unwrap();
        assert_eq!((c.by_game.mean, c.by_game.std_error), (-0.5, None));
        assert_eq!(c.report().lines().last().unwrap(), "new − old, by game (1): -50.00 % a game");
    }
}
