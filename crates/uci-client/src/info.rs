//! Parsing of `info` and `bestmove` lines.
//!
//! Engines differ in which fields they send, in what order, and some send
//! garbage; the parsers here therefore never fail: unknown tokens are
//! skipped, malformed numbers leave a field unset, and a line that is not
//! an `info` line at all simply yields an empty [`Info`].

pub use bastion_core::score::Score;

/// Win/draw/loss probabilities in per mille, as sent with `wdl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WdlInfo {
    /// Win probability, per mille.
    pub win: u32,
    /// Draw probability, per mille.
    pub draw: u32,
    /// Loss probability, per mille.
    pub loss: u32,
}

/// The fields of one `info` line; absent fields are `None` or empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// Nominal search depth in plies.
    pub depth: Option<u32>,
    /// Selective (maximum reached) depth in plies.
    pub seldepth: Option<u32>,
    /// Index of this line when searching several principal variations.
    pub multipv: Option<u32>,
    /// Score of the principal variation.
    pub score: Option<Score>,
    /// The score is only a lower bound (fail high).
    pub lowerbound: bool,
    /// The score is only an upper bound (fail low).
    pub upperbound: bool,
    /// Win/draw/loss estimate.
    pub wdl: Option<WdlInfo>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Hash table fill, per mille.
    pub hashfull: Option<u32>,
    /// Tablebase hits.
    pub tbhits: Option<u64>,
    /// Search time so far in milliseconds.
    pub time: Option<u64>,
    /// Move currently being searched.
    pub currmove: Option<String>,
    /// Index (from 1) of the move currently being searched.
    pub currmovenumber: Option<u32>,
    /// Principal variation as UCI moves.
    pub pv: Vec<String>,
    /// Free text after `string` (the rest of the line).
    pub string: Option<String>,
}

/// The final answer of a search.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BestMove {
    /// Best move in UCI notation; `None` if the engine reported no move
    /// (`(none)` or `0000`, e.g. when checkmated or stalemated).
    pub best: Option<String>,
    /// Move the engine expects in reply, if it sent one.
    pub ponder: Option<String>,
}

/// True for tokens shaped like a UCI move: `e2e4`, `a7a8q`, or the null
/// move `0000`. Promotion letters are accepted in either case because some
/// engines send them upper-case.
pub(crate) fn is_uci_move(token: &str) -> bool {
    let b = token.as_bytes();
    if token == "0000" {
        return true;
    }
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && matches!(b[4].to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n'),
        _ => false,
    }
}

/// Splits on whitespace, remembering each token's byte offset so that
/// `string` can return the rest of the line with its original spacing.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_whitespace().map(|t| (t.as_ptr() as usize - base, t)).collect()
}

/// Parses an `info` line. Never fails and never panics: fields that are
/// missing or malformed are left unset, unknown tokens are skipped.
///
/// ```
/// use bastion_uci_client::{parse_info, Score};
/// let info = parse_info("info depth 12 score cp -31 upperbound nodes 5000 pv e7e5 g1f3");
/// assert_eq!(info.depth, Some(12));
/// assert_eq!(info.score, Some(Score::Cp(-31)));
/// assert!(info.upperbound);
/// assert_eq!(info.pv, ["e7e5", "g1f3"]);
/// ```
pub fn parse_info(line: &str) -> Info {
    let toks = tokens(line);
    let mut info = Info::default();
    if toks.first().map(|&(_, t)| t) != Some("info") {
        return info;
    }

    // Takes the next token as a number only if it parses, so a garbled
    // value does not swallow the keyword that follows it.
    fn number<T: std::str::FromStr>(toks: &[(usize, &str)], i: &mut usize) -> Option<T> {
        let value = toks.get(*i)?.1.parse().ok()?;
        *i += 1;
        Some(value)
    }
    // A move list ends at the first token that is not move-shaped: the next
    // keyword (no keyword looks like a move) or garbage.
    fn moves(toks: &[(usize, &str)], i: &mut usize) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(&(_, t)) = toks.get(*i) {
            if !is_uci_move(t) {
                break;
            }
            out.push(t.to_owned());
            *i += 1;
        }
        out
    }

    let mut i = 1;
    while let Some(&(_, key)) = toks.get(i) {
        i += 1;
        match key {
            "depth" => info.depth = number(&toks, &mut i).or(info.depth),
            "seldepth" => info.seldepth = number(&toks, &mut i).or(info.seldepth),
            "multipv" => info.multipv = number(&toks, &mut i).or(info.multipv),
            "nodes" => info.nodes = number(&toks, &mut i).or(info.nodes),
            "nps" => info.nps = number(&toks, &mut i).or(info.nps),
            "hashfull" => info.hashfull = number(&toks, &mut i).or(info.hashfull),
            "tbhits" => info.tbhits = number(&toks, &mut i).or(info.tbhits),
            "time" => info.time = number(&toks, &mut i).or(info.time),
            "currmovenumber" => info.currmovenumber = number(&toks, &mut i).or(info.currmovenumber),
            "currmove" => {
                if let Some(&(_, m)) = toks.get(i).filter(|&&(_, t)| is_uci_move(t)) {
                    info.currmove = Some(m.to_owned());
                    i += 1;
                }
            }
            "score" => {
                // `score` may be followed by `cp`/`mate` and bound flags in
                // any order; stop at the first token that is none of them.
                while let Some(&(_, t)) = toks.get(i) {
                    match t {
                        "cp" | "mate" => {
                            i += 1;
                            if let Some(v) = number::<i32>(&toks, &mut i) {
                                info.score = Score::from_uci(t, v);
                            }
                        }
                        "lowerbound" => {
                            info.lowerbound = true;
                            i += 1;
                        }
                        "upperbound" => {
                            info.upperbound = true;
                            i += 1;
                        }
                        _ => break,
                    }
                }
            }
            "wdl" => {
                let start = i;
                match (number(&toks, &mut i), number(&toks, &mut i), number(&toks, &mut i)) {
                    (Some(win), Some(draw), Some(loss)) => info.wdl = Some(WdlInfo { win, draw, loss }),
                    // Incomplete triple: rewind so nothing is half-consumed.
                    _ => i = start,
                }
            }
            "pv" => info.pv = moves(&toks, &mut i),
            "refutation" => {
                moves(&toks, &mut i);
            }
            "currline" => {
                // Optional CPU number, then moves; neither is kept.
                let _ = number::<u32>(&toks, &mut i);
                moves(&toks, &mut i);
            }
            "string" => {
                // Everything after `string` is free text, keywords included.
                let rest = toks.get(i).map_or("", |&(offset, _)| &line[offset..]);
                info.string = Some(rest.trim_end().to_owned());
                break;
            }
            _ => {} // unknown token or stray value: skip it
        }
    }
    info
}

/// Parses a `bestmove` line; `None` if the line is not one.
///
/// ```
/// use bastion_uci_client::parse_bestmove;
/// let bm = parse_bestmove("bestmove e2e4 ponder e7e5").unwrap();
/// assert_eq!(bm.best.as_deref(), Some("e2e4"));
/// assert_eq!(bm.ponder.as_deref(), Some("e7e5"));
/// assert_eq!(parse_bestmove("bestmove (none)").unwrap().best, None);
/// ```
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut toks = line.split_whitespace();
    if toks.next()? != "bestmove" {
        return None;
    }
    // Anything that is not a real move ("(none)", "0000", garbage) means
    // the engine has no move to play.
    let real = |t: &str| (t != "0000" && is_uci_move(t)).then(|| t.to_owned());
    let best = toks.next().and_then(real);
    let mut ponder = None;
    while let Some(t) = toks.next() {
        if t == "ponder" {
            ponder = toks.next().and_then(real);
            break;
        }
    }
    Some(BestMove { best, ponder })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Keywords that start a field of an `info` line.
    const KEYWORDS: &[&str] = &[
        "depth",
        "seldepth",
        "multipv",
        "score",
        "wdl",
        "nodes",
        "nps",
        "hashfull",
        "tbhits",
        "sbhits",
        "time",
        "currmove",
        "currmovenumber",
        "pv",
        "string",
        "refutation",
        "currline",
        "cpuload",
    ];

    #[test]
    fn full_stockfish_line() {
        let line = "info depth 24 seldepth 33 multipv 1 score cp 35 wdl 120 830 50 nodes 2153467 \
                    nps 1234567 hashfull 412 tbhits 7 time 1745 pv e2e4 e7e5 g1f3 b8c6";
        let info = parse_info(line);
        assert_eq!(info.depth, Some(24));
        assert_eq!(info.seldepth, Some(33));
        assert_eq!(info.multipv, Some(1));
        assert_eq!(info.score, Some(Score::Cp(35)));
        assert!(!info.lowerbound && !info.upperbound);
        assert_eq!(info.wdl, Some(WdlInfo { win: 120, draw: 830, loss: 50 }));
        assert_eq!(info.nodes, Some(2_153_467));
        assert_eq!(info.nps, Some(1_234_567));
        assert_eq!(info.hashfull, Some(412));
        assert_eq!(info.tbhits, Some(7));
        assert_eq!(info.time, Some(1745));
        assert_eq!(info.pv, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(info.string, None);
    }

    #[test]
    fn mate_scores_and_bounds() {
        let info = parse_info("info depth 30 score mate -3 lowerbound pv h7h8Q");
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert!(info.lowerbound);
        assert_eq!(info.pv, ["h7h8Q"]);
        let info = parse_info("info score upperbound cp 12 depth 5");
        assert_eq!(info.score, Some(Score::Cp(12)));
        assert!(info.upperbound);
        assert_eq!(info.depth, Some(5));
    }

    #[test]
    fn currmove_and_string() {
        let info = parse_info("info depth 3 currmove a7a8n currmovenumber 14");
        assert_eq!(info.currmove.as_deref(), Some("a7a8n"));
        assert_eq!(info.currmovenumber, Some(14));
        let info = parse_info("info depth 2 string NNUE  evaluation using  nn.bin depth 9");
        assert_eq!(info.depth, Some(2));
        assert_eq!(info.string.as_deref(), Some("NNUE  evaluation using  nn.bin depth 9"));
        assert_eq!(parse_info("info string").string.as_deref(), Some(""));
    }

    #[test]
    fn pv_stops_at_next_keyword_or_garbage() {
        let info = parse_info("info pv e2e4 e7e5 depth 7 nodes 10");
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.nodes, Some(10));
        let info = parse_info("info pv e2e4 zz9 e7e5 depth 3");
        assert_eq!(info.pv, ["e2e4"]);
        assert_eq!(info.depth, Some(3));
    }

    #[test]
    fn refutation_and_currline_are_skipped() {
        let info = parse_info("info refutation d1h5 g6h5 currline 1 e2e4 e7e5 depth 4");
        assert_eq!(info.depth, Some(4));
        assert!(info.pv.is_empty());
    }

    #[test]
    fn garbage_is_tolerated() {
        let info = parse_info("info depth x nodes -5 score cp nodes 12 wdl 1 2 time 99999999999999999999999");
        assert_eq!(info.depth, None);
        assert_eq!(info.score, None);
        assert_eq!(info.nodes, Some(12));
        assert_eq!(info.wdl, None);
        assert_eq!(info.time, None);
        assert_eq!(parse_info(""), Info::default());
        assert_eq!(parse_info("bestmove e2e4"), Info::default());
        assert_eq!(parse_info("information depth 3"), Info::default());
        assert_eq!(parse_info("  info   depth\t9  ").depth, Some(9));
        assert_eq!(parse_info("info score cp 2147483648").score, None);
        assert_eq!(parse_info("info ünïcödé depth 1 ✓").depth, Some(1));
    }

    #[test]
    fn bestmove_variants() {
        assert_eq!(parse_bestmove("bestmove e7e8q"), Some(BestMove { best: Some("e7e8q".into()), ponder: None }));
        assert_eq!(parse_bestmove("bestmove 0000").unwrap().best, None);
        assert_eq!(parse_bestmove("bestmove").unwrap(), BestMove::default());
        assert_eq!(parse_bestmove("bestmove g1f3 ponder (none)").unwrap().ponder, None);
        assert_eq!(parse_bestmove("info bestmove e2e4"), None);
        assert_eq!(parse_bestmove(""), None);
        assert_eq!(parse_bestmove("bestmoves e2e4"), None);
    }

    #[test]
    fn move_shapes() {
        for ok in ["e2e4", "a7a8q", "h2h1N", "0000", "e1h1"] {
            assert!(is_uci_move(ok), "{ok}");
        }
        for bad in ["", "e2", "e2e9", "i2e4", "e7e8k", "e2e4e5", "depth", "é2e4"] {
            assert!(!is_uci_move(bad), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn parse_info_never_panics(s in ".*") {
            let _ = parse_info(&s);
            let _ = parse_bestmove(&s);
        }

        #[test]
        fn parse_info_never_panics_on_token_soup(
            toks in proptest::collection::vec(
                prop_oneof![
                    proptest::sample::select(KEYWORDS.to_vec()).prop_map(str::to_owned),
                    proptest::sample::select(vec!["cp", "mate", "lowerbound", "upperbound", "e2e4", "-1", "0", "4294967296"]).prop_map(str::to_owned),
                    "\\PC{0,6}",
                ],
                0..30,
            )
        ) {
            let line = format!("info {}", toks.join(" "));
            let _ = parse_info(&line);
        }
    }
}
