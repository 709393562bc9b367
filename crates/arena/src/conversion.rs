//! How clear advantages ended: for each engine in a set of games, the games in which its own
//! score stayed clearly ahead (or behind) for several moves in a row, and what became of them.
//!
//! A match score says how often an engine won; this says where its points were lost. An
//! engine that is often clearly ahead and then draws has a conversion problem (an ending it
//! overrates, no progress before the fifty-move rule), which a search or evaluation change can
//! be aimed at; one that is rarely ahead has a problem earlier in the game. The scores are the
//! engines' own, read from the PGN move comments that `bastion match` and cutechess-cli write
//! (`+1.25/17 0.210s`, `-M4/12 0.050s`).

use crate::pgn::PgnGame;
use crate::stats::{GameResult, Wdl};
use bastion_core::game::Termination;
use bastion_core::Color;
use serde::Serialize;
use std::collections::BTreeMap;

/// A score in pawns that stands for a mate (larger than any evaluation).
pub const MATE_PAWNS: f64 = 1000.0;

/// What counts as a clear advantage: the engine's own score at least `pawns` for at least
/// `moves` of its scored moves in a row.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Advantage {
    /// The score, in pawns, from the engine's side.
    pub pawns: f64,
    /// How many of its scored moves in a row (moves without a score are skipped).
    pub moves: u32,
}

impl Default for Advantage {
    fn default() -> Self {
        Advantage { pawns: 2.0, moves: 8 }
    }
}

/// The score in a PGN move comment, in pawns from the mover's side: `+1.25/17 0.210s` gives
/// 1.25, `-M4/12 …` gives −[`MATE_PAWNS`]; `None` for `book` and other comments.
pub fn score_of_comment(comment: &str) -> Option<f64> {
    let word = comment.split(',').next()?.split_whitespace().next()?;
    let score = word.split('/').next()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1.0, &score[1..]),
        b'-' => (-1.0, &score[1..]),
        _ => (1.0, score),
    };
    if let Some(n) = rest.strip_prefix('M') {
        return n.parse::<u32>().ok().map(|_| sign * MATE_PAWNS);
    }
    let v: f64 = rest.parse().ok()?;
    (v.is_finite() && v.abs() < MATE_PAWNS).then_some(sign * v)
}

/// One engine's clear advantages and disadvantages over a set of games ([`Conversion::merge`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Conversion {
    /// Finished games the engine played.
    pub games: u64,
    /// Games in which it was clearly ahead, by their result.
    pub ahead: Wdl,
    /// Games in which it was clearly behind, by their result.
    pub behind: Wdl,
    /// How the games that it was clearly ahead in and did not win ended (see [`ending`]).
    pub ahead_not_won_endings: BTreeMap<String, u64>,
    /// For those games, the fifty-move counter (halfmoves since a capture or pawn move) at its
    /// last move still scored at half the edge or more: high values mean the edge ran into the
    /// fifty-move rule rather than into a mistake or an ending the engine overrated.
    pub ahead_not_won_counters: Vec<u32>,
}

impl Conversion {
    /// Each side's record in one game, by the names in its `White` and `Black` tags (one
    /// record when an engine played itself). Unfinished games (`*`) count for nothing.
    pub fn of_pgn_game(game: &PgnGame, advantage: &Advantage) -> Vec<(String, Conversion)> {
        let Some(winner) = game.winner() else { return Vec::new() };
        let mut sides: Vec<(String, Conversion)> = Vec::new();
        let end = ending(game);
        for side in [Color::White, Color::Black] {
            let name = game.header(if side == Color::White { "White" } else { "Black" }).unwrap_or("?");
            let result = match winner {
                None => GameResult::Draw,
                Some(w) if w == side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            let c = Conversion::of_side(game, side, result, advantage, &end);
            match sides.iter_mut().find(|(n, _)| n == name) {
                Some((_, mine)) => mine.merge(&c),
                None => sides.push((name.to_string(), c)),
            }
        }
        sides
    }

    fn of_side(game: &PgnGame, side: Color, result: GameResult, adv: &Advantage, end: &str) -> Conversion {
        let mut c = Conversion { games: 1, ..Conversion::default() };
        let (mut up, mut down) = (0u32, 0u32);
        let (mut was_ahead, mut was_behind) = (false, false);
        let mut last_ahead_counter = None;
        let mut pos = game.start.clone();
        for (&m, comment) in game.moves.iter().zip(&game.comments) {
            if pos.side_to_move() == side {
                if let Some(v) = score_of_comment(comment) {
                    up = if v >= adv.pawns { up + 1 } else { 0 };
                    down = if v <= -adv.pawns { down + 1 } else { 0 };
                    was_ahead |= up >= adv.moves;
                    was_behind |= down >= adv.moves;
                    if v >= adv.pawns / 2.0 {
                        last_ahead_counter = Some(pos.halfmove_clock());
                    }
                }
            }
            pos = pos.play(m);
        }
        if was_ahead {
            c.ahead.record(result);
            if result != GameResult::Win {
                *c.ahead_not_won_endings.entry(end.to_string()).or_default() += 1;
                c.ahead_not_won_counters.extend(last_ahead_counter);
            }
        }
        if was_behind {
            c.behind.record(result);
        }
        c
    }

    /// Adds another record (another game's) to this one.
    pub fn merge(&mut self, other: &Conversion) {
        self.games += other.games;
        self.ahead.merge(&other.ahead);
        self.behind.merge(&other.behind);
        for (k, n) in &other.ahead_not_won_endings {
            *self.ahead_not_won_endings.entry(k.clone()).or_default() += n;
        }
        self.ahead_not_won_counters.extend_from_slice(&other.ahead_not_won_counters);
    }

    /// The report's lines for this engine (without its name), e.g.
    /// `clearly ahead in 86 of 200 games: +57 =27 −2, 66.3 % won`.
    pub fn describe(&self, adv: &Advantage) -> Vec<String> {
        // A share of no games is no figure: "0.0 % not lost" would read as every game lost.
        let share = |a: u64, b: u64, what: &str| {
            if b == 0 {
                String::new()
            } else {
                format!(", {:.1} % {what}", 100.0 * a as f64 / b as f64)
            }
        };
        let a = &self.ahead;
        let b = &self.behind;
        let mut lines = vec![
            format!(
                "ahead (own score ≥ +{:.2} for {} moves in a row) in {} of {} games: +{} ={} −{}{}",
                adv.pawns,
                adv.moves,
                a.games(),
                self.games,
                a.wins,
                a.draws,
                a.losses,
                share(a.wins, a.games(), "won")
            ),
            format!(
                "behind (≤ −{:.2} for {} moves) in {} of {} games: +{} ={} −{}{}",
                adv.pawns,
                adv.moves,
                b.games(),
                self.games,
                b.wins,
                b.draws,
                b.losses,
                share(b.wins + b.draws, b.games(), "not lost")
            ),
        ];
        if !self.ahead_not_won_endings.is_empty() {
            let mut ends: Vec<(&String, &u64)> = self.ahead_not_won_endings.iter().collect();
            ends.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
            let ends: Vec<String> = ends.iter().map(|(k, n)| format!("{n} {k}")).collect();
            lines.push(format!("ahead and not won, ended by: {}", ends.join(", ")));
        }
        if !self.ahead_not_won_counters.is_empty() {
            let mut v = self.ahead_not_won_counters.clone();
            v.sort_unstable();
            let late = v.iter().filter(|&&h| h >= 50).count();
            lines.push(format!(
                "fifty-move counter at its last move still at +{:.2} or more: median {} halfmoves; {} of {} at 50 or more",
                adv.pawns / 2.0,
                v[v.len() / 2],
                late,
                v.len()
            ));
        }
        lines
    }
}

/// How a game ended, by the rules where its last position decides it (`checkmate`,
/// `stalemate`, `insufficient material`, `fifty-move rule`, `repetition`), otherwise
/// `adjudication or other` (resignation, time forfeit, tablebase or score adjudication).
pub fn ending(game: &PgnGame) -> String {
    match game.to_game().outcome(true).map(|o| o.termination) {
        Some(Termination::Checkmate) => "checkmate",
        Some(Termination::Stalemate) => "stalemate",
        Some(Termination::InsufficientMaterial) => "insufficient material",
        Some(Termination::FiftyMoves | Termination::SeventyFiveMoves) => "fifty-move rule",
        Some(Termination::ThreefoldRepetition | Termination::FivefoldRepetition) => "repetition",
        None => "adjudication or other",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use proptest::prelude::*;

    #[test]
    fn scores_are_read_from_comments() {
        assert_eq!(score_of_comment("+1.25/17 0.210s"), Some(1.25));
        assert_eq!(score_of_comment("-0.40/9 1.000s, White resigns"), Some(-0.4));
        assert_eq!(score_of_comment("0.00/20 0.5s"), Some(0.0));
        assert_eq!(score_of_comment("+M3/12 0.050s"), Some(MATE_PAWNS));
        assert_eq!(score_of_comment("-M1/1 0.001s"), Some(-MATE_PAWNS));
        assert_eq!(score_of_comment("book"), None);
        assert_eq!(score_of_comment(""), None);
        assert_eq!(score_of_comment("+nan/3 1s"), None);
        assert_eq!(score_of_comment("-Mx/3 1s"), None);
    }

    /// White's score stays at +2.5 for three moves; the game is drawn by repetition of the
    /// knights' dance, its last score of +1 or more at a fifty-move counter of 4.
    const DRAWN: &str = r#"[White "A"]
[Black "B"]
[Result "1/2-1/2"]

1. Nf3 {+2.50/10 0.1s} Nf6 {-2.40/10 0.1s} 2. Ng1 {+2.60/10 0.1s} Ng8 {-2.50/10 0.1s}
3. Nf3 {+2.70/10 0.1s} Nf6 {-0.10/10 0.1s} 4. Ng1 {+0.00/10 0.1s} Ng8 {0.00/10 0.1s} 1/2-1/2
"#;

    #[test]
    fn an_edge_held_and_drawn_is_counted_with_its_ending() {
        let games = read_games(DRAWN.as_bytes()).unwrap();
        let adv = Advantage { pawns: 2.0, moves: 3 };
        let sides = Conversion::of_pgn_game(&games[0], &adv);
        let a = &sides.iter().find(|(n, _)| n == "A").unwrap().1;
        assert_eq!(a.games, 1);
        assert_eq!(a.ahead, Wdl::new(0, 1, 0));
        assert_eq!(a.behind.games(), 0);
        assert_eq!(a.ahead_not_won_endings.get("repetition"), Some(&1));
        // Its last move at +1 or more (+2.70) was 3. Nf3, after four knight moves.
        assert_eq!(a.ahead_not_won_counters, vec![4]);
        let b = &sides.iter().find(|(n, _)| n == "B").unwrap().1;
        // Black was at −2.40 or worse for only two moves in a row.
        assert_eq!(b.behind.games(), 0);
        assert_eq!(b.ahead.games(), 0);
        let lines = a.describe(&adv);
        assert!(lines[0].contains("in 1 of 1 games: +0 =1 −0, 0.0 % won"), "{lines:?}");
        assert_eq!(lines[2], "ahead and not won, ended by: 1 repetition");
        assert!(lines[3].contains("median 4 halfmoves; 0 of 1 at 50 or more"), "{lines:?}");
    }

    #[test]
    fn an_engine_against_itself_is_one_record_and_unfinished_games_count_nothing() {
        let text = DRAWN.replace("[Black \"B\"]", "[Black \"A\"]");
        let games = read_games(text.as_bytes()).unwrap();
        let adv = Advantage { pawns: 2.0, moves: 2 };
        let sides = Conversion::of_pgn_game(&games[0], &adv);
        assert_eq!(sides.len(), 1);
        // Ahead as White, behind as Black (two moves at −2.40 and −2.50), both drawn.
        assert_eq!(sides[0].1.games, 2);
        assert_eq!(sides[0].1.ahead.draws, 1);
        assert_eq!(sides[0].1.behind.draws, 1);
        let open = DRAWN.replace("1/2-1/2", "*");
        let games = read_games(open.as_bytes()).unwrap();
        assert!(Conversion::of_pgn_game(&games[0], &adv).is_empty());
    }

    proptest! {
        #[test]
        fn any_comment_gives_a_score_or_none(text in ".{0,40}") {
            if let Some(v) = score_of_comment(&text) {
                prop_assert!(v.is_finite() && v.abs() <= MATE_PAWNS);
            }
        }

        #[test]
        fn written_scores_read_back(cp in -99_999i32..99_999) {
            let comment = format!("{:+.2}/12 0.100s", f64::from(cp) / 100.0);
            let v = score_of_comment(&comment).unwrap();
            prop_assert!((v - f64::from(cp) / 100.0).abs() < 1e-9);
        }
    }
}
