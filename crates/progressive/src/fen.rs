//! Progressive FEN: orthodox FEN plus the series state.
//!
//! `<board> <side> <castling> <ep> <quiet> <turn> <series>[/<played>]`
//!
//! * `<ep>`: `-` or one or more squares written together (`d6f6`). With
//!   nothing played yet they are the squares the side to move may capture onto
//!   en passant with its first move (every double step of the opponent's last
//!   series whose pawn has not moved since). In the middle of a series they are
//!   the squares passed by the mover's own double steps so far.
//! * `<quiet>`: completed turns since the last capture or pawn move (10 = draw);
//!   inside a series a trailing `*` says the series already made a capture or
//!   pawn move (so the count will restart at 0 when it ends).
//! * `<turn>`: the turn number used in notation.
//! * `<series>`: the length of the current series; `/<played>`: how many of
//!   its moves are already played (default 0).
//!
//! A plain six-field FEN is accepted together with an explicit series length;
//! its clocks are then ignored (they count half-moves, not turns).

use crate::error::ProgressiveError;
use crate::rules::Rules;
use crate::series::SeriesPosition;
use bastion_core::{Bitboard, Position, Square};

fn parse_ep(field: &str) -> Result<Bitboard, ProgressiveError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if !field.len().is_multiple_of(2) || !field.is_ascii() {
        return Err(ProgressiveError::BadEnPassant(field.to_string()));
    }
    let mut bb = Bitboard::EMPTY;
    for i in (0..field.len()).step_by(2) {
        let sq: Square = field[i..i + 2].parse().map_err(|_| ProgressiveError::BadEnPassant(field.to_string()))?;
        bb.set(sq);
    }
    Ok(bb)
}

fn parse_num(field: &str, what: &str) -> Result<u32, ProgressiveError> {
    field.parse::<u32>().map_err(|_| ProgressiveError::BadFen(format!("{what} must be a number, found {field:?}")))
}

impl SeriesPosition {
    /// Parses a progressive FEN (seven fields). A plain FEN (four to six
    /// fields) needs `series`, the length of the series the side to move plays.
    pub fn from_fen(fen: &str, series: Option<u32>, rules: Rules) -> Result<SeriesPosition, ProgressiveError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(ProgressiveError::BadFen(format!("needs at least 4 fields, found {}", fields.len())));
        }
        if fields.len() > 7 {
            return Err(ProgressiveError::BadFen(format!("has {} fields; at most 7 are allowed", fields.len())));
        }
        // Everything but the series goes through the core FEN parser, so a field it
        // rejects (`r 1`, `-5 -7`, `zz yy` as counters) gets its error here too. A
        // Progressive FEN's own spellings are mapped onto core syntax first: its
        // en-passant field may name several squares, or the mover's own passed
        // squares, so core sees `-` there (the squares are checked below), and a
        // trailing `*` on the quiet-turn count is no part of the number.
        let progressive = fields.len() == 7;
        let mut core_fields: Vec<&str> = fields[..fields.len().min(6)].to_vec();
        if progressive {
            core_fields[3] = "-";
            core_fields[4] = fields[4].strip_suffix('*').unwrap_or(fields[4]);
        }
        Position::from_fen(&core_fields.join(" "))?;
        // The series position keeps its en-passant squares and counters itself: its
        // board carries none.
        let board = Position::from_fen(&format!("{} {} {} - 0 1", fields[0], fields[1], fields[2]))?;
        let ep = parse_ep(fields[3])?;
        if progressive {
            let zeroing = fields[4].ends_with('*');
            let quiet = parse_num(fields[4].strip_suffix('*').unwrap_or(fields[4]), "the quiet-turn count")?;
            let turn = parse_num(fields[5], "the turn number")?;
            let (len, played) = match fields[6].split_once('/') {
                Some((l, p)) => (parse_num(l, "the series length")?, parse_num(p, "the played count")?),
                None => (parse_num(fields[6], "the series length")?, 0),
            };
            let len = series.unwrap_or(len);
            let p = SeriesPosition::new(board, len, played, ep, quiet, turn, rules)?;
            Ok(if zeroing && played > 0 { p.with_zeroing() } else { p })
        } else {
            let Some(len) = series else {
                return Err(ProgressiveError::BadFen(
                    "a plain FEN needs the series length (7th field, or --series N)".into(),
                ));
            };
            SeriesPosition::new(board, len, 0, ep, 0, len, rules)
        }
    }

    /// The progressive FEN of this position.
    pub fn fen(&self) -> String {
        let epd = self.board().epd();
        let mut parts = epd.split(' ');
        let board = parts.next().unwrap_or_default();
        let side = parts.next().unwrap_or_default();
        let castling = parts.next().unwrap_or_default();
        let ep = if self.ep_squares().is_empty() {
            "-".to_string()
        } else {
            self.ep_squares().map(|s| s.to_string()).collect::<String>()
        };
        let series = if self.played() == 0 {
            self.series_len().to_string()
        } else {
            format!("{}/{}", self.series_len(), self.played())
        };
        let star = if self.played() > 0 && self.series_zeroed() { "*" } else { "" };
        format!("{board} {side} {castling} {ep} {}{star} {} {series}", self.quiet_turns(), self.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::FenError;
    use proptest::prelude::*;

    const BOARD: &str = "4k3/8/8/8/8/8/8/4K2R";

    /// Garbage counters used to pass because a plain FEN's clocks were never read.
    #[test]
    fn garbage_counters_get_the_core_errors() {
        for (counters, want) in [
            ("r 1", FenError::InvalidHalfmoveClock("r".into())),
            ("-5 -7", FenError::InvalidHalfmoveClock("-5".into())),
            ("0 -7", FenError::InvalidFullmoveNumber("-7".into())),
            ("zz yy", FenError::InvalidHalfmoveClock("zz".into())),
        ] {
            let fen = format!("{BOARD} w K - {counters}");
            let core = Position::from_fen(&fen).unwrap_err();
            assert_eq!(core, want);
            match SeriesPosition::from_fen(&fen, Some(3), Rules::Italian) {
                Err(ProgressiveError::Fen(e)) => assert_eq!(e, core, "{fen}"),
                other => panic!("{fen}: {:?}", other.map(|p| p.fen())),
            }
            // The same counters in a Progressive FEN, before the series field.
            let fen7 = format!("{BOARD} w K - {counters} 3");
            assert!(matches!(SeriesPosition::from_fen(&fen7, None, Rules::Italian), Err(ProgressiveError::Fen(_))));
        }
        assert!(matches!(
            SeriesPosition::from_fen(&format!("{BOARD} w K e9 0 1"), Some(3), Rules::Italian),
            Err(ProgressiveError::Fen(FenError::InvalidEnPassant(_)))
        ));
        // Valid forms still parse, the Progressive spellings included.
        assert!(SeriesPosition::from_fen(&format!("{BOARD} w K - 0 1"), Some(3), Rules::Italian).is_ok());
        assert!(SeriesPosition::from_fen(&format!("{BOARD} w K - 4 7 3"), None, Rules::Italian).is_ok());
        assert!(SeriesPosition::from_fen(&format!("{BOARD} w K - 4* 7 3/1"), None, Rules::Italian).is_ok());
        assert!(SeriesPosition::from_fen(&format!("{BOARD} w K - 4** 7 3/1"), None, Rules::Italian).is_err());
    }

    fn field() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("-".to_string()),
            Just("0".to_string()),
            Just("1".to_string()),
            Just("w".to_string()),
            Just("b".to_string()),
            Just("K".to_string()),
            Just("e3".to_string()),
            Just("e6".to_string()),
            "-?[0-9]{1,3}",
            "[a-z*/-]{1,3}",
            "[KQkq]{1,4}",
        ]
    }

    proptest! {
        /// Whatever core rejects as a FEN of four to six fields, the Progressive parser
        /// rejects too (with a series length given, so that the FEN alone decides).
        #[test]
        fn rejects_whatever_core_rejects(
            board in prop_oneof![
                Just(BOARD.to_string()),
                Just("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR".to_string()),
                Just("4k3/8/8/8/8/8/8/8".to_string()),
                "[1-8kKpPrR/]{1,20}",
            ],
            rest in proptest::collection::vec(field(), 3..=5),
        ) {
            let fen = format!("{board} {}", rest.join(" "));
            if Position::from_fen(&fen).is_err() {
                prop_assert!(SeriesPosition::from_fen(&fen, Some(2), Rules::Italian).is_err(), "{}", fen);
            }
        }
    }
}
