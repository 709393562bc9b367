//! PGN games: reading (with the `pgn-reader` crate, moves checked by our
//! core) and writing (headers, SAN moves, comments, result). Bastion's one
//! PGN reader and writer: the match runner, opening sets, book building and
//! the web app's import and export all use it.

use bastion_core::{Color, Game, Move, Position};
use pgn_reader::{BufferedReader, RawComment, RawHeader, SanPlus, Skip, Visitor};
use std::collections::VecDeque;
use std::io::Read;

/// A game read from or written to PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Header tags in order (`Event`, `White`, …).
    pub headers: Vec<(String, String)>,
    /// The starting position (from `FEN` when present).
    pub start: Position,
    /// The main-line moves, each legal in turn.
    pub moves: Vec<Move>,
    /// A comment after each move (empty when none); same length as `moves`.
    pub comments: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why reading stopped early (an illegal or unreadable move), if it did.
    pub error: Option<String>,
}

impl PgnGame {
    /// A game with no moves from `start`.
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            headers: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            result: "*".to_string(),
            error: None,
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets (replacing) a header.
    pub fn set_header(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.headers.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.headers.push((name.to_string(), value)),
        }
    }

    /// The main line of `game` with no headers; the result is the game's outcome
    /// by the rules (without draw claims), `*` while it is not over.
    pub fn from_game(game: &Game) -> PgnGame {
        let mut g = PgnGame::new(game.start().clone());
        g.moves = game.moves().to_vec();
        g.comments = vec![String::new(); g.moves.len()];
        g.result = game.outcome(false).map_or("*", |o| o.result()).to_string();
        g
    }

    /// The main line (moves up to any error) replayed as a [`Game`], with its
    /// repetition history.
    pub fn to_game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for &m in &self.moves {
            game.make(m);
        }
        game
    }

    /// The winner by the result string: `Some(Some(c))` for a win, `Some(None)`
    /// for a draw, `None` for an unfinished or unknown result.
    pub fn winner(&self) -> Option<Option<Color>> {
        match self.result.as_str() {
            "1-0" => Some(Some(Color::White)),
            "0-1" => Some(Some(Color::Black)),
            "1/2-1/2" => Some(None),
            _ => None,
        }
    }

    /// The game in PGN: the Seven Tag Roster first (in its order), other
    /// headers after, `SetUp`/`FEN` when the start is not the usual one,
    /// moves in SAN with `{comments}`, lines of at most 80 characters (a move
    /// number stays on the line of its move).
    pub fn to_pgn(&self) -> String {
        const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        let mut out = String::new();
        for tag in ROSTER {
            let value = if tag == "Result" { Some(self.result.as_str()) } else { self.header(tag) };
            out.push_str(&format!("[{tag} \"{}\"]\n", escape(value.unwrap_or("?"))));
        }
        let standard = self.start.fen() == bastion_core::fen::STARTPOS;
        let mut extra: Vec<(String, String)> = self
            .headers
            .iter()
            .filter(|(k, _)| !ROSTER.contains(&k.as_str()) && k != "SetUp" && k != "FEN")
            .cloned()
            .collect();
        if !standard {
            extra.insert(0, ("SetUp".into(), "1".into()));
            extra.insert(1, ("FEN".into(), self.start.fen()));
        }
        for (k, v) in extra {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
        }
        out.push('\n');
        let mut tokens = Vec::new();
        let mut pos = self.start.clone();
        for (i, &m) in self.moves.iter().enumerate() {
            let san = pos.san(m);
            tokens.push(if pos.side_to_move() == Color::White {
                format!("{}. {san}", pos.fullmove_number())
            } else if i == 0 {
                format!("{}... {san}", pos.fullmove_number())
            } else {
                san
            });
            if let Some(c) = self.comments.get(i).filter(|c| !c.is_empty()) {
                // Braces cannot be escaped inside PGN comments.
                tokens.push(format!("{{{}}}", c.replace(['{', '}'], "")));
            }
            pos = pos.play(m);
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

/// A tag value as PGN writes it: `\\` and `\"` escaped, on one line.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

/// Collects one game's main line with our own move legality checks.
struct Collector {
    game: PgnGame,
    pos: Position,
    bad_fen: Option<String>,
}

impl Visitor for Collector {
    type Result = PgnGame;

    fn begin_game(&mut self) {
        self.game = PgnGame::new(Position::startpos());
        self.pos = Position::startpos();
        self.bad_fen = None;
    }

    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        let key = String::from_utf8_lossy(key).into_owned();
        let value = value.decode_utf8_lossy().into_owned();
        if key.eq_ignore_ascii_case("FEN") {
            match Position::from_fen(&value) {
                Ok(p) => {
                    self.game.start = p.clone();
                    self.pos = p;
                }
                Err(e) => self.bad_fen = Some(format!("bad FEN header {value:?}: {e}")),
            }
        }
        self.game.headers.push((key, value));
    }

    fn end_headers(&mut self) -> Skip {
        if let Some(e) = self.bad_fen.take() {
            self.game.error = Some(e);
            return Skip(true);
        }
        Skip(false)
    }

    fn san(&mut self, san_plus: SanPlus) {
        if self.game.error.is_some() {
            return;
        }
        let text = san_plus.to_string();
        match self.pos.parse_san(&text) {
            Ok(m) => {
                self.pos = self.pos.play(m);
                self.game.moves.push(m);
                self.game.comments.push(String::new());
            }
            Err(e) => {
                self.game.error = Some(format!("move {} ({text}): {e}", self.pos.fullmove_number()));
            }
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        if self.game.error.is_some() {
            return;
        }
        if let Some(last) = self.game.comments.last_mut() {
            let text = String::from_utf8_lossy(comment.as_bytes());
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(text.trim());
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true) // main line only
    }

    fn outcome(&mut self, outcome: Option<pgn_reader::Outcome>) {
        self.game.result = match outcome {
            Some(pgn_reader::Outcome::Decisive { winner: pgn_reader::Color::White }) => "1-0",
            Some(pgn_reader::Outcome::Decisive { winner: pgn_reader::Color::Black }) => "0-1",
            Some(pgn_reader::Outcome::Draw) => "1/2-1/2",
            None => "*",
        }
        .to_string();
    }

    fn end_game(&mut self) -> PgnGame {
        if self.game.result == "*" {
            // Fall back to the Result header when the movetext lacks one.
            if let Some(r) = self.game.header("Result").map(str::to_string) {
                if matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2") {
                    self.game.result = r;
                }
            }
        }
        std::mem::replace(&mut self.game, PgnGame::new(Position::startpos()))
    }
}

/// Reads every game of a PGN stream. Games with an illegal move keep the
/// moves before it and say why in [`PgnGame::error`]; I/O errors fail.
pub fn read_games(reader: impl Read) -> std::io::Result<Vec<PgnGame>> {
    let mut out = Vec::new();
    for_each_game(reader, |g| {
        out.push(g);
        true
    })?;
    Ok(out)
}

/// The first game of a PGN stream, `None` when it holds none.
pub fn read_first_game(reader: impl Read) -> std::io::Result<Option<PgnGame>> {
    let mut first = None;
    for_each_game(reader, |g| {
        first = Some(g);
        false
    })?;
    Ok(first)
}

/// Streams the games of a PGN source to `f` without holding them all;
/// `f` returns false to stop early.
pub fn for_each_game(reader: impl Read, mut f: impl FnMut(PgnGame) -> bool) -> std::io::Result<()> {
    let mut reader = BufferedReader::new(UnixLineEnds::new(reader));
    let mut visitor = Collector { game: PgnGame::new(Position::startpos()), pos: Position::startpos(), bad_fen: None };
    while let Some(game) = reader.read_game(&mut visitor)? {
        if !f(game) {
            break;
        }
    }
    Ok(())
}

/// A reader that turns CR LF and lone CR line ends into LF.
///
/// `pgn-reader` 0.26 loops forever in `skip_variation` on a line feed followed by a
/// carriage return and any byte but a line feed (found by fuzzing); with every line end a
/// plain LF that state cannot arise, and CR LF files read as before.
struct UnixLineEnds<R> {
    inner: R,
    /// The last byte read was a CR whose line end is not written yet.
    pending_cr: bool,
    /// Bytes ready to hand out.
    out: VecDeque<u8>,
    done: bool,
}

impl<R: Read> UnixLineEnds<R> {
    fn new(inner: R) -> Self {
        UnixLineEnds { inner, pending_cr: false, out: VecDeque::new(), done: false }
    }

    /// Reads one chunk of the inner source into `out`; false at its end.
    fn fill(&mut self) -> std::io::Result<bool> {
        let mut chunk = [0u8; 8192];
        let n = loop {
            match self.inner.read(&mut chunk) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        if n == 0 {
            if std::mem::take(&mut self.pending_cr) {
                self.out.push_back(b'\n');
            }
            return Ok(false);
        }
        for &b in &chunk[..n] {
            if std::mem::take(&mut self.pending_cr) {
                // CR LF and a lone CR both end one line.
                self.out.push_back(b'\n');
                if b == b'\n' {
                    continue;
                }
            }
            if b == b'\r' {
                self.pending_cr = true;
            } else {
                self.out.push_back(b);
            }
        }
        Ok(true)
    }
}

impl<R: Read> Read for UnixLineEnds<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.out.is_empty() && !self.done {
            self.done = !self.fill()?;
        }
        let n = buf.len().min(self.out.len());
        for (slot, b) in buf.iter_mut().zip(self.out.drain(..n)) {
            *slot = b;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` on another thread and fails instead of hanging when it takes too long.
    fn within_seconds<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(secs)).expect("PGN reading hung")
    }

    #[test]
    fn line_feed_then_carriage_return_does_not_hang() {
        // The input fuzzing found: a variation holding "\n\r" and a byte other than "\n".
        let text: Vec<u8> = vec![
            0x31, 0xff, 0x28, 0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x4b, 0x38, 0x5d, 0x0e, 0x00, 0x00, 0x00, 0x4b, 0x0a, 0x0d,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0x20, 0x21, 0x65,
        ];
        within_seconds(10, move || read_games(&text[..]).map(|g| g.len())).unwrap();
    }

    #[test]
    fn line_ends_of_every_kind_read_alike() {
        let unix = "[Event \"E\"]\n\n1. e4 e5\n2. Nf3 *\n";
        for text in [unix.to_string(), unix.replace('\n', "\r\n"), unix.replace('\n', "\r")] {
            let games = read_games(text.as_bytes()).unwrap();
            assert_eq!(games.len(), 1, "{text:?}");
            assert_eq!(games[0].moves.len(), 3, "{text:?}");
            assert_eq!(games[0].header("Event"), Some("E"));
        }
        // Chunk borders between CR and LF change nothing: a reader handing out one byte at a time.
        struct OneByte<'a>(&'a [u8]);
        impl Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match (self.0.split_first(), buf.first_mut()) {
                    (Some((&b, rest)), Some(slot)) => {
                        *slot = b;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let crlf = unix.replace('\n', "\r\n");
        let games = read_games(OneByte(crlf.as_bytes())).unwrap();
        assert_eq!(games[0].moves.len(), 3);
    }

    const TWO_GAMES: &str = r#"[Event "Test"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {book} e5 2. Nf3 (2. Qh5 Nc6) Nc6 3. Bb5 a6 $1 1-0

[Event "From FEN"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "1/2-1/2"]

1. e4 Kd7 2. Kf2 Qd4 1/2-1/2
"#;

    #[test]
    fn reads_main_lines_comments_and_fen_starts() {
        let games = read_games(TWO_GAMES.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.header("white"), Some("A"));
        assert_eq!(g.moves.len(), 6, "the variation is skipped");
        assert_eq!(g.comments[0], "book");
        assert_eq!(g.winner(), Some(Some(Color::White)));
        assert!(g.error.is_none());
        let h = &games[1];
        assert_eq!(h.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(h.moves.len(), 3);
        assert!(h.error.as_deref().unwrap().contains("Qd4"));
        assert_eq!(h.winner(), Some(None));
    }

    #[test]
    fn writes_and_reads_back() {
        let games = read_games(TWO_GAMES.as_bytes()).unwrap();
        let mut g = games[1].clone();
        g.error = None;
        g.comments[1] = "+0.35/12 0.101s".into();
        g.set_header("Termination", "adjudication");
        let text = g.to_pgn();
        assert!(text.starts_with("[Event \"From FEN\"]\n[Site \"?\"]"));
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"));
        assert!(text.contains("1. e4 Kd7 {+0.35/12 0.101s} 2. Kf2 1/2-1/2"), "{text}");
        let back = read_games(text.as_bytes()).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, g.moves);
        assert_eq!(back[0].comments, g.comments);
        assert_eq!(back[0].header("Termination"), Some("adjudication"));
        // A standard start writes no FEN.
        assert!(!games[0].to_pgn().contains("FEN"));
    }

    #[test]
    fn games_convert_both_ways() {
        let mut game = Game::new(Position::startpos());
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let m = game.position().parse_san(san).unwrap();
            game.make(m);
        }
        let mut g = PgnGame::from_game(&game);
        assert_eq!(g.result, "0-1");
        g.set_header("White", "Alice \"A\"\nand Bob");
        let text = g.to_pgn();
        assert!(text.contains("[White \"Alice \\\"A\\\" and Bob\"]"), "{text}");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
        let back = read_first_game(text.as_bytes()).unwrap().unwrap();
        assert_eq!(back.to_game().moves(), game.moves());
        assert_eq!(back.header("White"), Some("Alice \"A\" and Bob"));
        assert!(read_first_game("".as_bytes()).unwrap().is_none());
    }

    #[test]
    fn move_numbers_stay_with_their_moves() {
        let mut g = PgnGame::new(Position::startpos());
        let mut pos = Position::startpos();
        for _ in 0..20 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                let m = pos.parse_san(san).unwrap();
                g.moves.push(m);
                pos = pos.play(m);
            }
        }
        let text = g.to_pgn();
        for line in text.lines().filter(|l| !l.starts_with('[') && !l.is_empty()) {
            assert!(line.len() <= 80, "{line}");
            assert!(!line.ends_with('.'), "{line}");
        }
    }

    #[test]
    fn errors_name_the_move_number_of_the_position() {
        let games =
            read_games("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. Kf2 Qd4 *".as_bytes()).unwrap();
        assert_eq!(games[0].moves.len(), 2);
        assert!(games[0].error.as_deref().unwrap().starts_with("move 31 (Qd4)"), "{:?}", games[0].error);
    }
}
