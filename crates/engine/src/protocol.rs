//! The engine's protocol server: the UCI loop that a GUI or the `bastion uci` command talks to.
//!
//! The search runs on its own thread (the [`Engine`] moves into it and comes back
//! when it ends), so the loop keeps reading input: `stop`, `ponderhit`, `isready`
//! and `quit` are answered at once. Malformed input is reported with
//! `info string` and otherwise ignored.

use crate::book::{BookLoader, BookProber};
use crate::mate_prover::{proved_mate_line, MateBudget, MateProver};
use crate::nnue::Network;
use crate::options::{EngineOptions, SearchParams};
use crate::score::Score;
use crate::search::{CurrMove, Engine, Limits, ScoreBound, SearchControl, SearchInfo};
use crate::tb::TablebaseProbe;
use crate::tt::TtShare;
use bastion_core::rng::Rng;
use bastion_core::{Move, Position};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Loads a tablebase for an option (`SyzygyPath` or `BastionTBPath`) and a path;
/// `Ok(None)` unloads. Supplied by the CLI so this crate needs no tablebase code.
pub type TbLoader = Box<dyn Fn(&str, &str) -> Result<Option<Arc<dyn TablebaseProbe>>, String> + Send>;

/// The deepest `go perft` accepted: depth 10 from the start position is already about
/// 70 trillion leaves; deeper asks are refused rather than left running for years.
const MAX_PERFT_DEPTH: u32 = 10;

/// The parameters of `go`: where a `searchmoves` list ends.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Engine name reported to GUIs.
pub const ENGINE_NAME: &str = concat!("Bastion ", env!("CARGO_PKG_VERSION"));

/// A UCI session writing to `W`.
pub struct UciSession<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    engine: Option<Engine>,
    search: Option<JoinHandle<Engine>>,
    /// Set (under the output lock) just before `bestmove` is printed, by the search thread
    /// or by `stop`: from then on the thread only hands the engine back, so commands wait
    /// for it instead of being refused, and nothing more of that search is printed.
    search_done: Arc<AtomicBool>,
    /// The `bestmove` line the running search would give if stopped now, kept up to date
    /// from its reports so that `stop` is answered without waiting for the search threads.
    stop_answer: Arc<Mutex<Option<String>>>,
    control: Arc<SearchControl>,
    opts: EngineOptions,
    pos: Position,
    history: Vec<u64>,
    chess960: bool,
    show_wdl: bool,
    tb_loader: Option<TbLoader>,
    tb_paths: Vec<(String, String)>,
    /// The network named by `EvalFile` (none: the hand-written evaluation).
    net: Option<Arc<Network>>,
    unbounded: bool,
    book_loader: Option<BookLoader>,
    book: Option<Arc<dyn BookProber>>,
    own_book: bool,
    book_rng: Rng,
    mate_prover: Option<Arc<dyn MateProver>>,
    use_mate_prover: bool,
    tt_share: Option<Arc<TtShare>>,
}

impl<W: Write + Send + 'static> UciSession<W> {
    /// A session with default options.
    pub fn new(out: W) -> UciSession<W> {
        UciSession::with_options(out, EngineOptions::default())
    }

    /// A session that starts with `opts` instead of the defaults (as if set by
    /// `setoption`): a fuzzer or test can start with a small hash table rather
    /// than allocate and clear the default one for every session.
    pub fn with_options(out: W, opts: EngineOptions) -> UciSession<W> {
        let engine = Engine::new(opts.clone());
        let control = engine.control();
        UciSession {
            out: Arc::new(Mutex::new(out)),
            engine: Some(engine),
            search: None,
            search_done: Arc::new(AtomicBool::new(false)),
            stop_answer: Arc::new(Mutex::new(None)),
            control,
            opts,
            pos: Position::startpos(),
            history: Vec::new(),
            chess960: false,
            show_wdl: false,
            tb_loader: None,
            tb_paths: Vec::new(),
            net: Some(Network::builtin()),
            unbounded: false,
            book_loader: None,
            book: None,
            own_book: false,
            // Seeded from the clock so that book choices vary between games.
            book_rng: Rng::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64),
            ),
            mate_prover: None,
            use_mate_prover: true,
            tt_share: None,
        }
    }

    /// Shares the engine's table entries through `share` (a cluster search exchanges them
    /// with the other ranks); see [`Engine::set_tt_share`].
    pub fn with_tt_share(mut self, share: Arc<TtShare>) -> Self {
        if let Some(e) = &mut self.engine {
            e.set_tt_share(Some(Arc::clone(&share)));
        }
        self.tt_share = Some(share);
        self
    }

    /// Makes this session's engine search as rank `rank` of a cluster that searches the same
    /// root ([`EngineOptions::cluster_rank`]): its threads skip depths as the Lazy SMP helpers
    /// after the earlier ranks' threads would, so that the ranks search different trees.
    pub fn with_cluster_rank(mut self, rank: usize) -> Self {
        let opts = EngineOptions { cluster_rank: rank, ..self.opts.clone() };
        if let Some(e) = &mut self.engine {
            // Only a hash size can fail to apply, and the hash size is unchanged here.
            let _ = e.set_options(opts.clone());
        }
        self.opts = opts;
        self
    }

    /// The link installed with [`UciSession::with_tt_share`], if any.
    pub fn tt_share(&self) -> Option<&Arc<TtShare>> {
        self.tt_share.as_ref()
    }

    /// Installs the solver that proves the shortest mate once the search finds one
    /// (option `MateSolver`, on by default when a prover is installed).
    pub fn with_mate_prover(mut self, prover: Arc<dyn MateProver>) -> Self {
        self.mate_prover = Some(prover);
        self
    }

    /// Installs the loader used by the `BookFile` option.
    pub fn with_book_loader(mut self, loader: BookLoader) -> Self {
        self.book_loader = Some(loader);
        self
    }

    /// A book move for the current position, if `OwnBook` is on and the book has one.
    fn book_move(&mut self, limits: &Limits) -> Option<Move> {
        if !self.own_book || limits.infinite || limits.ponder || !limits.searchmoves.is_empty() {
            return None;
        }
        let book = self.book.as_ref()?;
        book.pick(&self.pos, self.book_rng.next_u64()).filter(|&m| self.pos.is_legal(m))
    }

    /// Installs the tablebase loader used by `SyzygyPath` / `BastionTBPath`.
    pub fn with_tablebase_loader(mut self, loader: TbLoader) -> Self {
        self.tb_loader = Some(loader);
        self
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Reads commands until `quit` or end of input; a running search is stopped at the end.
    pub fn run<R: BufRead>(mut self, mut input: R) {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            if !self.handle(&line) {
                self.finish_search();
                return;
            }
        }
        // End of input: a bounded search may finish (so `echo "go depth 12" | bastion` works);
        // an infinite or ponder search is stopped.
        if let Some(h) = self.search.take() {
            if self.unbounded {
                self.control.stop();
            }
            if let Ok(e) = h.join() {
                self.engine = Some(e);
            }
        }
    }

    /// Stops a running search, waits for it to end and takes the engine back.
    fn finish_search(&mut self) {
        if self.search.is_some() {
            self.control.stop();
            self.join_search();
        }
    }

    /// `stop`: answers `bestmove` at once with the best move of the last completed report
    /// and lets the search threads wind down on their own; the next command waits for
    /// them (so `isready` still answers only when the engine is idle). On a loaded
    /// machine the search threads may wait several scheduler slices before they see the
    /// flag; the reading thread is woken at once. Before the first report there is
    /// nothing to answer with, and the search is waited for as before.
    fn answer_stop(&mut self) {
        if self.search.is_none() {
            return;
        }
        self.control.stop();
        let answer = lock(&self.stop_answer).clone();
        match answer {
            Some(line) => say_once(&self.out, &self.search_done, &line),
            None => self.join_search(),
        }
    }

    /// Waits for the search thread to end and takes the engine back.
    fn join_search(&mut self) {
        if let Some(h) = self.search.take() {
            match h.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => {
                    self.say("info string search thread failed; engine restarted");
                    self.restart_engine();
                }
            }
        }
    }

    /// A fresh engine with the session's options and network, after the old one was lost.
    fn restart_engine(&mut self) {
        let mut e = Engine::new(self.opts.clone());
        e.set_network(self.net.clone());
        e.set_tt_share(self.tt_share.clone());
        self.control = e.control();
        self.engine = Some(e);
    }

    /// Takes the engine back once the search has printed `bestmove` (waiting for the
    /// thread, which has nothing left to do but return it); true when the session is idle.
    fn reclaim_if_done(&mut self) -> bool {
        let done = self.search_done.load(Ordering::Acquire);
        if done || self.search.as_ref().is_some_and(|h| h.is_finished()) {
            self.join_search();
        }
        self.search.is_none()
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return true };
        // After `bestmove` every command finds the session idle (GUIs and python-chess
        // send `setoption` right after it).
        self.reclaim_if_done();
        match cmd {
            "uci" => self.cmd_uci(),
            // Answered at once during a search (the protocol requires it); after `bestmove`
            // only once the engine is back, which `reclaim_if_done` above ensured.
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.finish_search();
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
            }
            "position" => self.cmd_position(&tokens[1..]),
            "go" => self.cmd_go(&tokens[1..]),
            "stop" => self.answer_stop(),
            "ponderhit" => self.control.ponderhit(),
            "setoption" => self.cmd_setoption(&tokens[1..]),
            "quit" => {
                self.finish_search();
                return false;
            }
            "d" => {
                let text = format!("{}", self.pos);
                for l in text.lines() {
                    self.say(&format!("info string {l}"));
                }
            }
            "eval" => {
                let pos = &self.pos;
                let mut by = "hand-written";
                let mut cache = crate::eval::PawnCache::new();
                let v = crate::eval::evaluate_by(pos, self.net.as_deref(), &mut cache, |n| {
                    by = "network";
                    n.evaluate(pos)
                });
                self.say(&format!("info string static eval {v} cp (side to move, {by} evaluation)"));
            }
            "debug" | "register" => {}
            _ => self.say(&format!("info string unknown command: {}", truncate(line.trim()))),
        }
        true
    }

    fn cmd_uci(&self) {
        let mut lines = vec![format!("id name {ENGINE_NAME}"), "id author the Bastion developers".to_string()];
        let d = EngineOptions::default();
        lines.push(format!("option name Hash type spin default {} min 1 max 65536", d.hash_mb));
        lines.push(format!("option name Threads type spin default {} min 1 max 256", d.threads));
        lines.push(format!("option name MultiPV type spin default {} min 1 max 256", d.multipv));
        lines.push("option name Ponder type check default false".to_string());
        lines.push(format!("option name Move Overhead type spin default {} min 0 max 5000", d.move_overhead_ms));
        lines.push("option name Clear Hash type button".to_string());
        lines.push("option name UCI_Chess960 type check default false".to_string());
        lines.push("option name UCI_ShowWDL type check default false".to_string());
        lines.push("option name Contempt type spin default 0 min -200 max 200".to_string());
        lines.push("option name SyzygyPath type string default <empty>".to_string());
        lines.push(format!("option name SyzygyProbeDepth type spin default {} min 1 max 100", d.syzygy.probe_depth));
        lines.push(format!("option name Syzygy50MoveRule type check default {}", d.syzygy.fifty_move_rule));
        lines.push(format!("option name SyzygyProbeLimit type spin default {} min 0 max 7", d.syzygy.probe_limit));
        lines.push("option name BastionTBPath type string default <empty>".to_string());
        lines.push("option name EvalFile type string default <internal>".to_string());
        lines.push("option name OwnBook type check default false".to_string());
        lines.push("option name BookFile type string default <empty>".to_string());
        lines.push(format!("option name FortressAware type check default {}", d.fortress_aware));
        if self.mate_prover.is_some() {
            lines.push("option name MateSolver type check default true".to_string());
        }
        // The search techniques of the ablation study (docs/ablation.md).
        let mut p = d.params.clone();
        for (name, field) in SearchParams::switches() {
            lines.push(format!("option name {name} type check default {}", field(&mut p)));
        }
        lines.push(format!(
            "option name AdaptiveDepthThreshold type spin default {} min 1 max 64",
            p.adaptive_depth_threshold
        ));
        lines.push(format!("option name NullMoveReduction type spin default {} min 0 max 8", p.null_move_reduction));
        lines.push(format!("option name LazyEvalMargin type spin default {} min 0 max 2000", p.lazy_margin));
        lines.push("uciok".to_string());
        for l in lines {
            self.say(&l);
        }
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let (mut pos, rest) = match args.first() {
            Some(&"startpos") => (Position::startpos(), &args[1..]),
            Some(&"fen") => {
                let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
                let fen = args[1..end].join(" ");
                match Position::from_fen_with(&fen, self.chess960.into()) {
                    Ok(p) => (p, &args[end..]),
                    Err(e) => {
                        self.say(&format!("info string invalid FEN {:?}: {e}; position unchanged", truncate(&fen)));
                        return;
                    }
                }
            }
            _ => {
                self.say("info string usage: position (startpos | fen <fen>) [moves <move>...]; position unchanged");
                return;
            }
        };
        pos.set_chess960(self.chess960 || pos.is_chess960());
        let mut history = Vec::new();
        match rest.first() {
            None => {}
            Some(&"moves") => {
                for t in &rest[1..] {
                    match pos.parse_uci(t) {
                        Ok(m) => {
                            history.push(pos.key());
                            pos = pos.play(m);
                        }
                        Err(e) => {
                            self.say(&format!("info string illegal move {}: {e}; moves after it ignored", truncate(t)));
                            break;
                        }
                    }
                }
            }
            Some(t) => self.say(&format!("info string unexpected {:?} in position command", truncate(t))),
        }
        self.pos = pos;
        self.history = history;
    }

    fn parse_go(&self, args: &[&str]) -> Limits {
        let mut l = Limits::default();
        // A limit was asked for, even if its value was unusable.
        let mut limit_asked = false;
        let mut i = 0;
        let num = |s: Option<&&str>| -> Option<i64> { s.and_then(|v| v.parse::<i64>().ok()) };
        while i < args.len() {
            let key = args[i];
            let val = args.get(i + 1);
            let mut take = 1;
            let mut bad = false;
            let ms = |v: Option<i64>| v.map(|x| x.max(0) as u64);
            match key {
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate" | "movetime" => {
                    take = 2;
                    limit_asked = true;
                    let v = num(val);
                    if v.is_none() {
                        bad = true;
                    }
                    match key {
                        "wtime" => l.wtime_ms = ms(v),
                        "btime" => l.btime_ms = ms(v),
                        "winc" => l.winc_ms = ms(v),
                        "binc" => l.binc_ms = ms(v),
                        "movestogo" => l.movestogo = v.filter(|&x| x > 0).map(|x| x.min(1000) as u32),
                        "depth" => l.depth = v.map(|x| x.clamp(1, 120) as i32),
                        "nodes" => l.nodes = v.map(|x| x.max(1) as u64),
                        "mate" => {
                            if let Some(x) = v.filter(|&x| x < 1) {
                                self.say(&format!(
                                    "info string go mate {x} is invalid (a mate takes at least 1 move); searching as for mate 1"
                                ));
                            }
                            l.mate = v.map(|x| x.clamp(1, 120) as i32);
                        }
                        _ => l.movetime_ms = ms(v),
                    }
                }
                "infinite" => l.infinite = true,
                "ponder" => l.ponder = true,
                "searchmoves" => {
                    // The list runs to the next `go` keyword, as in Stockfish: a move that is
                    // illegal here is reported and left out, and the others still restrict the
                    // search, rather than the whole list being dropped at the first bad one.
                    let mut j = i + 1;
                    while j < args.len() && !GO_KEYWORDS.contains(&args[j]) {
                        match self.pos.parse_uci(args[j]) {
                            Ok(m) => l.searchmoves.push(m),
                            Err(e) => {
                                self.say(&format!("info string searchmoves: {:?} left out: {e}", truncate(args[j])))
                            }
                        }
                        j += 1;
                    }
                    if j > i + 1 && l.searchmoves.is_empty() {
                        self.say("info string searchmoves: no legal move given; searching all moves");
                    }
                    take = j - i;
                }
                other => self.say(&format!("info string ignoring unknown go parameter {:?}", truncate(other))),
            }
            if bad {
                self.say(&format!("info string bad value for go {key}; ignored"));
            }
            i += take;
        }
        // "mate N" alone also bounds the depth so the search terminates.
        if let (Some(m), None, None, None) = (l.mate, l.depth, l.movetime_ms, l.nodes) {
            if !l.infinite && !l.has_clock() {
                l.depth = Some((4 * m + 12).min(120));
            }
        }
        // Only `infinite`, `ponder` or a bare `go` search until `stop`: limits whose values
        // were all unusable still give a bounded search.
        if limit_asked && l.is_unbounded() && !l.infinite && !l.ponder {
            self.say("info string no usable limit in go; searching to depth 1");
            l.depth = Some(1);
        }
        l
    }

    fn cmd_go(&mut self, args: &[&str]) {
        self.finish_search();
        if args.first() == Some(&"perft") {
            self.cmd_perft(args.get(1).copied());
            return;
        }
        let limits = self.parse_go(args);
        if let Some(m) = self.book_move(&limits) {
            self.say("info string book move");
            self.say(&format!("bestmove {}", self.pos.to_uci(m)));
            return;
        }
        self.unbounded = limits.is_unbounded();
        let Some(mut engine) = self.engine.take() else {
            self.say("info string engine unavailable");
            return;
        };
        // No legal move: say why before the `bestmove 0000` (as Stockfish does).
        if self.pos.legal_moves().is_empty() {
            let score = if self.pos.in_check() { "mate 0" } else { "cp 0" };
            self.say(&format!("info depth 0 score {score}"));
        }
        self.control = engine.control();
        let pos = self.pos.clone();
        let history = self.history.clone();
        let out = Arc::clone(&self.out);
        let show_wdl = self.show_wdl;
        // The prover answers "which is the shortest mate"; with several lines or a
        // restricted root the question is a different one, so it stays out.
        let prover = self.mate_prover.clone().filter(|_| {
            self.use_mate_prover && !limits.infinite && limits.searchmoves.is_empty() && self.opts.multipv == 1
        });
        let timed = limits.movetime_ms.is_some() || limits.has_clock();
        let control = Arc::clone(&self.control);
        let done = Arc::new(AtomicBool::new(false));
        self.search_done = Arc::clone(&done);
        let (report_out, report_pos, report_done) = (Arc::clone(&self.out), pos.clone(), Arc::clone(&done));
        engine.set_currmove_report(Some(Arc::new(move |c: &CurrMove| {
            say_unless_done(
                &report_out,
                &report_done,
                &format!("info depth {} currmove {} currmovenumber {}", c.depth, report_pos.to_uci(c.mv), c.number),
            );
        })));
        let (message_out, message_done) = (Arc::clone(&self.out), Arc::clone(&done));
        engine.set_message_report(Some(Arc::new(move |m: &str| {
            say_unless_done(&message_out, &message_done, &format!("info string {m}"));
        })));
        let stop_answer = Arc::new(Mutex::new(None));
        self.stop_answer = Arc::clone(&stop_answer);
        self.control.stop.store(false, Ordering::SeqCst);
        self.control.pondering.store(limits.ponder, Ordering::SeqCst);
        let handle = std::thread::Builder::new().name("search".into()).stack_size(64 << 20).spawn(move || {
            // The last report of the first line: the mate solver's line is reported like it.
            let mut last: Option<SearchInfo> = None;
            let mut result = engine.search(&pos, &history, &limits, &mut |info| {
                say_unless_done(&out, &done, &format_info(&pos, info, show_wdl));
                if info.line.multipv == 1 {
                    last = Some(info.clone());
                    // A fail-low line's move is not the one the search would play.
                    if info.line.bound != ScoreBound::Upper {
                        if let Some(line) =
                            bestmove_line(&pos, info.line.pv.first().copied(), info.line.pv.get(1).copied())
                        {
                            *lock(&stop_answer) = Some(line);
                        }
                    }
                }
            });
            let stopped = control.stop.load(Ordering::SeqCst);
            if let (Some(prover), Some(mut info)) = (prover.filter(|_| !stopped), last) {
                // A quarter of the search's own effort: node-limited for reproducible
                // runs, and under a clock also a wall-clock limit.
                let budget = MateBudget {
                    nodes: result.nodes.max(100_000),
                    deadline: timed.then(|| {
                        std::time::Instant::now() + std::time::Duration::from_millis((result.time_ms / 4).max(10))
                    }),
                    stop: &control.stop,
                };
                if let Some(line) = proved_mate_line(prover.as_ref(), &pos, &result, &budget) {
                    let moves = line.len().div_ceil(2) as i32;
                    say_unless_done(&out, &done, &format!("info string mate solver: shortest mate in {moves} proved"));
                    result.best = line.first().copied();
                    result.ponder = line.get(1).copied();
                    result.score = Score::Mate(moves);
                    info.line.score = result.score;
                    info.line.bound = ScoreBound::Exact;
                    info.line.pv = line;
                    say_unless_done(&out, &done, &format_info(&pos, &info, show_wdl));
                }
            }
            let line = bestmove_line(&pos, result.best, result.ponder).unwrap_or_else(|| "bestmove 0000".to_string());
            // Unless `stop` has answered already; the flag is set before the line goes out,
            // so a command the GUI sends in answer finds it.
            say_once(&out, &done, &line);
            engine
        });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.say(&format!("info string cannot start search thread: {e}"));
                self.say("bestmove 0000");
                self.restart_engine();
            }
        }
    }

    /// `go perft N`: the leaf count split by root move, printed as Stockfish prints it
    /// (`e2e4: 20` a line, then `Nodes searched: N`) so that tools that compare move
    /// generators against Stockfish (perftree and the like) can drive Bastion too. It runs
    /// on the reading thread and prints no `bestmove`, as in Stockfish.
    fn cmd_perft(&self, depth: Option<&str>) {
        let Some(depth) = depth.and_then(|d| d.parse::<u32>().ok()).filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
        else {
            self.say(&format!("info string go perft needs a depth 1..={MAX_PERFT_DEPTH}"));
            return;
        };
        let mut total = 0;
        for (m, n) in bastion_core::perft::divide(&self.pos, depth) {
            self.say(&format!("{}: {n}", self.pos.to_uci(m)));
            total += n;
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        let name_start = match args.first() {
            Some(&"name") => 1,
            _ => {
                self.say("info string usage: setoption name <name> [value <value>]");
                return;
            }
        };
        let vpos = args.iter().position(|&t| t == "value").unwrap_or(args.len());
        let name = args[name_start..vpos.max(name_start)].join(" ");
        let value = if vpos < args.len() { args[vpos + 1..].join(" ") } else { String::new() };
        if !self.reclaim_if_done() {
            self.say(&format!("info string cannot change option {:?} while searching", truncate(&name)));
            return;
        }
        let lname = name.to_ascii_lowercase();
        let spin = |v: &str, lo: i64, hi: i64| -> Result<i64, String> {
            let x: i64 = v.trim().parse().map_err(|_| format!("value {:?} is not a number", truncate(v)))?;
            if x < lo || x > hi {
                return Err(format!("value {x} outside {lo}..{hi}"));
            }
            Ok(x)
        };
        let check = |v: &str| -> Result<bool, String> {
            match v.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                other => Err(format!("value {:?} is not true/false", truncate(other))),
            }
        };
        let mut opts = self.opts.clone();
        let result: Result<(), String> = match lname.as_str() {
            "hash" => spin(&value, 1, 65536).map(|x| opts.hash_mb = x as usize),
            "threads" => spin(&value, 1, 256).map(|x| opts.threads = x as usize),
            "multipv" => spin(&value, 1, 256).map(|x| opts.multipv = x as usize),
            "move overhead" => spin(&value, 0, 5000).map(|x| opts.move_overhead_ms = x as u64),
            "contempt" => spin(&value, -200, 200).map(|x| opts.params.contempt = x as i32),
            "adaptivedepththreshold" => spin(&value, 1, 64).map(|x| opts.params.adaptive_depth_threshold = x as usize),
            "nullmovereduction" => spin(&value, 0, 8).map(|x| opts.params.null_move_reduction = x as i32),
            "lazyevalmargin" => spin(&value, 0, 2000).map(|x| opts.params.lazy_margin = x as i32),
            "ponder" => check(&value).map(|_| ()),
            "uci_chess960" => check(&value).map(|b| {
                self.chess960 = b;
                self.pos.set_chess960(b);
            }),
            "uci_showwdl" => check(&value).map(|b| self.show_wdl = b),
            "clear hash" => {
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
                Ok(())
            }
            "syzygypath" | "bastiontbpath" => self.set_tb_path(&name, &value),
            "syzygyprobedepth" => spin(&value, 1, 100).map(|x| opts.syzygy.probe_depth = x as i32),
            "syzygyprobelimit" => spin(&value, 0, 7).map(|x| opts.syzygy.probe_limit = x as u32),
            "syzygy50moverule" => check(&value).map(|b| opts.syzygy.fifty_move_rule = b),
            "fortressaware" => check(&value).map(|b| opts.fortress_aware = b),
            "ownbook" => check(&value).map(|b| self.own_book = b),
            "bookfile" => self.set_book_file(&value),
            "evalfile" => self.set_eval_file(&value),
            "matesolver" if self.mate_prover.is_some() => check(&value).map(|b| self.use_mate_prover = b),
            _ => {
                if let Some((_, field)) = SearchParams::switches().iter().find(|(n, _)| n.eq_ignore_ascii_case(&name)) {
                    check(&value).map(|b| *field(&mut opts.params) = b)
                } else {
                    set_tunable(&mut opts, &name, &value, spin)
                }
            }
        };
        match result {
            Ok(()) => {
                if opts != self.opts {
                    if let Some(e) = &mut self.engine {
                        if let Err(msg) = e.set_options(opts) {
                            say(&self.out, &format!("info string {msg}"));
                        }
                        self.opts = e.options().clone();
                    } else {
                        self.opts = opts;
                    }
                }
            }
            Err(e) => self.say(&format!("info string setoption {:?}: {e}; ignored", truncate(&name))),
        }
    }

    /// `EvalFile`: `<internal>` (the built-in network), a network file, or `<empty>` / `none`
    /// for the hand-written evaluation.
    fn set_eval_file(&mut self, value: &str) -> Result<(), String> {
        let path = value.trim();
        self.net = match path {
            "" | "<empty>" | "none" => None,
            _ => Some(Network::by_name(path).map_err(|e| format!("{path:?}: {e}"))?),
        };
        if let Some(e) = &mut self.engine {
            e.set_network(self.net.clone());
        }
        let what = if self.net.is_some() { format!("network {path}") } else { "hand-written evaluation".to_string() };
        self.say(&format!("info string EvalFile: {what}"));
        Ok(())
    }

    fn set_book_file(&mut self, value: &str) -> Result<(), String> {
        let path = value.trim();
        if path.is_empty() || path == "<empty>" {
            self.book = None;
            return Ok(());
        }
        let Some(loader) = &self.book_loader else {
            return Err("this build has no opening-book support wired in".to_string());
        };
        self.book = Some(loader(path)?);
        self.say(&format!("info string BookFile set to {path:?}"));
        Ok(())
    }

    fn set_tb_path(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        let path = if v.is_empty() || v == "<empty>" { "" } else { v };
        self.tb_paths.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        let Some(loader) = &self.tb_loader else {
            if path.is_empty() {
                return Ok(());
            }
            return Err("this build has no tablebase support wired in".to_string());
        };
        let tb = loader(name, path)?;
        if !path.is_empty() {
            self.tb_paths.push((name.to_string(), path.to_string()));
        }
        if let Some(e) = &mut self.engine {
            e.set_tablebase(tb);
        }
        self.say(&format!("info string {name} set to {:?}", path));
        Ok(())
    }
}

/// A hidden option of a pruning margin or time-management constant, in builds with the
/// `tune` feature (else: unknown).
#[cfg(feature = "tune")]
fn set_tunable(
    opts: &mut EngineOptions,
    name: &str,
    value: &str,
    spin: impl Fn(&str, i64, i64) -> Result<i64, String>,
) -> Result<(), String> {
    use crate::options::{Margins, TimeConstants, TunableSpec};
    fn find<T>(specs: &'static [TunableSpec<T>], name: &str) -> Option<&'static TunableSpec<T>> {
        specs.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }
    if let Some(spec) = find(Margins::specs(), name) {
        spin(value, spec.min.into(), spec.max.into()).map(|x| *(spec.field)(&mut opts.params.margins) = x as i32)
    } else if let Some(spec) = find(TimeConstants::specs(), name) {
        spin(value, spec.min.into(), spec.max.into()).map(|x| *(spec.field)(&mut opts.params.time) = x as i32)
    } else {
        Err("unknown option".to_string())
    }
}

/// A hidden option of a pruning margin or time-management constant, in builds with the
/// `tune` feature (else: unknown).
#[cfg(not(feature = "tune"))]
fn set_tunable(
    _opts: &mut EngineOptions,
    _name: &str,
    _value: &str,
    _spin: impl Fn(&str, i64, i64) -> Result<i64, String>,
) -> Result<(), String> {
    Err("unknown option".to_string())
}

fn say<W: Write>(out: &Mutex<W>, line: &str) {
    write_line(&mut *lock(out), line);
}

/// Prints a line of a search unless its `bestmove` is out (the check and the write hold
/// the output lock, so nothing of a search follows its `bestmove`).
fn say_unless_done<W: Write>(out: &Mutex<W>, done: &AtomicBool, line: &str) {
    let mut w = lock(out);
    if !done.load(Ordering::Acquire) {
        write_line(&mut *w, line);
    }
}

/// Prints a search's `bestmove` line unless it was printed already (by `stop` or by the
/// search thread, whichever comes first), and marks the search as answered.
fn say_once<W: Write>(out: &Mutex<W>, done: &AtomicBool, line: &str) {
    let mut w = lock(out);
    if !done.swap(true, Ordering::AcqRel) {
        write_line(&mut *w, line);
    }
}

fn write_line<W: Write + ?Sized>(w: &mut W, line: &str) {
    // Output errors (closed pipe) are ignored: the GUI has gone and quit will follow.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Locks a mutex, taking the value over if a thread panicked while holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// `bestmove X [ponder Y]` for a best move and an optional reply in `pos`.
fn bestmove_line(pos: &Position, best: Option<Move>, ponder: Option<Move>) -> Option<String> {
    let b = best?;
    Some(match ponder {
        Some(p) => format!("bestmove {} ponder {}", pos.to_uci(b), pos.play(b).to_uci(p)),
        None => format!("bestmove {}", pos.to_uci(b)),
    })
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Win/draw/loss in permille from a score (a logistic model; mates are certain).
pub fn wdl(score: Score) -> (u32, u32, u32) {
    match score {
        Score::Mate(m) if m > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let cp = cp as f64;
            let w = 1000.0 / (1.0 + ((160.0 - cp) / 70.0).exp());
            let l = 1000.0 / (1.0 + ((160.0 + cp) / 70.0).exp());
            let (w, l) = (w.round() as u32, l.round() as u32);
            (w, 1000 - w - l, l)
        }
    }
}

/// Formats a search report as a UCI `info` line.
pub fn format_info(pos: &Position, info: &SearchInfo, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth.min(1)),
        info.line.multipv,
        info.line.score.to_uci()
    );
    match info.line.bound {
        ScoreBound::Lower => s.push_str(" lowerbound"),
        ScoreBound::Upper => s.push_str(" upperbound"),
        ScoreBound::Exact => {}
    }
    if show_wdl {
        let (w, d, l) = wdl(info.line.score);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits {} time {} pv",
        info.nodes, info.nps, info.hashfull, info.tbhits, info.time_ms
    ));
    s.push_str(&pv_string(pos, &info.line.pv));
    s
}

/// The moves of a line in UCI notation, each preceded by a space; stops at an illegal move.
pub fn pv_string(pos: &Position, pv: &[Move]) -> String {
    let mut s = String::new();
    let mut p = pos.clone();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        s.push(' ');
        s.push_str(&p.to_uci(m));
        p = p.play(m);
    }
    s
}
