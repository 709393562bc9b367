//! The engine handle: process management, handshake, commands, searches.

use std::io::{ErrorKind, Write};
use std::process::{Child, ChildStdin, ExitStatus};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) mod builder;
use builder::EngineBuilder;

use crate::error::{Awaiting, Result, UciError};
use crate::go::GoParams;
use crate::info::{is_uci_move, parse_bestmove, parse_info, Info};
use crate::options::{parse_option, UciOption};
use crate::process::{spawn_stderr_collector, spawn_stdout_reader, Event, StderrTail};
use crate::search::{SearchControl, SearchResult};

/// How long to wait for an engine that closed stdout to actually exit
/// before killing it, so that its real exit status can be reported.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Polling interval while waiting for a process to exit.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// The `id` lines of the handshake.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineId {
    /// The engine's name (`id name`).
    pub name: Option<String>,
    /// The engine's author (`id author`).
    pub author: Option<String>,
}

/// Whether the engine process is still usable.
#[derive(Debug, Clone, Copy)]
enum ProcessState {
    Running,
    /// Output closed or process gone; exit status if it could be reaped.
    Exited(Option<ExitStatus>),
    /// Waited for and reaped; nothing left to kill in Drop.
    Reaped(Option<ExitStatus>),
}

/// A search started with [`Engine::go`] whose `bestmove` is pending.
#[derive(Debug, Clone, Copy)]
struct SearchState {
    started: Instant,
    stop_sent: bool,
}

/// A running UCI engine. The process is killed when the handle is dropped.
///
/// All waits are bounded: every call that expects an answer takes a time
/// limit and fails with [`UciError::Timeout`] rather than blocking forever,
/// and a dead engine yields [`UciError::EngineExited`].
#[derive(Debug)]
pub struct Engine {
    child: Child,
    /// `None` only if the OS gave us no pipe, which `spawn` never does.
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<Event>>,
    /// A line read too late for the wait that read it, kept for the next.
    pushback: Option<(String, Instant)>,
    stderr_tail: StderrTail,
    id: EngineId,
    options: Vec<UciOption>,
    sync_timeout: Duration,
    search: Option<SearchState>,
    /// `bestmove` lines still owed by searches that timed out; they must be
    /// skipped so they are not taken as the answer to a later `go`.
    stale_bestmoves: u32,
    state: ProcessState,
}

impl Engine {
    /// Starts `program` with `args` and performs the handshake, with default
    /// settings; use [`Engine::builder`] for more control.
    pub fn spawn(program: &str, args: &[String]) -> Result<Engine> {
        EngineBuilder::new(program).args(args.iter().cloned()).spawn()
    }

    /// Starts an engine from a shell-style command line such as
    /// `"/opt/stockfish --flag 'two words'"`, with default settings.
    pub fn from_command_line(line: &str) -> Result<Engine> {
        EngineBuilder::from_command_line(line)?.spawn()
    }

    /// Starts configuring an engine process.
    pub fn builder(program: impl Into<String>) -> EngineBuilder {
        EngineBuilder::new(program)
    }

    /// Wraps a freshly spawned child, starts the output reader threads and
    /// performs the `uci` handshake. The child is killed on any failure.
    pub(crate) fn start(mut child: Child, program: &str, handshake_timeout: Duration) -> Result<Engine> {
        // Wrap the child first so that any failure below kills it in Drop.
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let mut engine = Engine {
            child,
            stdin,
            lines: None,
            pushback: None,
            stderr_tail: StderrTail::default(),
            id: EngineId::default(),
            options: Vec::new(),
            sync_timeout: handshake_timeout,
            search: None,
            stale_bestmoves: 0,
            state: ProcessState::Running,
        };
        // Failing to start a reader thread means the engine cannot be used
        // at all, so it is reported like a failure to start the process.
        let spawn_error = |source| UciError::Spawn { program: program.to_owned(), source };
        if let Some(stdout) = stdout {
            engine.lines = Some(spawn_stdout_reader(stdout).map_err(spawn_error)?);
        }
        if let Some(stderr) = stderr {
            spawn_stderr_collector(stderr, engine.stderr_tail.clone()).map_err(spawn_error)?;
        }
        engine.handshake(handshake_timeout)?;
        Ok(engine)
    }

    /// The `id name` / `id author` the engine sent.
    pub fn id(&self) -> &EngineId {
        &self.id
    }

    /// The engine's name, if it sent one.
    pub fn name(&self) -> Option<&str> {
        self.id.name.as_deref()
    }

    /// All options advertised during the handshake, in order.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// Looks up an advertised option; UCI option names are case-insensitive.
    pub fn option(&self, name: &str) -> Option<&UciOption> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines the engine wrote to stderr (empty unless captured).
    pub fn stderr_tail(&self) -> Vec<String> {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect()
    }

    /// True between [`Engine::go`] and the end of the matching wait.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Sends one raw command line (a newline is appended).
    ///
    /// Fails with [`UciError::InvalidArgument`] if `command` contains a line
    /// break, which would smuggle in a second command.
    pub fn send(&mut self, command: &str) -> Result<()> {
        if command.contains(['\n', '\r']) {
            return Err(UciError::InvalidArgument(format!("command contains a line break: {command:?}")));
        }
        self.ensure_alive(Awaiting::Command)?;
        let mut line = String::with_capacity(command.len() + 1);
        line.push_str(command);
        line.push('\n');
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.mark_exited(Awaiting::Command));
        };
        // One write per command keeps commands whole even if the engine
        // reads with small buffers.
        match stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(self.mark_exited(Awaiting::Command)),
            Err(e) => Err(UciError::Io(e)),
        }
    }

    /// Sends `isready` and waits up to `timeout` for `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<()> {
        self.ensure_idle()?;
        self.send("isready")?;
        let deadline = deadline_after(Instant::now(), timeout);
        loop {
            let (line, _) = self.next_line(deadline, timeout, Awaiting::ReadyOk)?;
            match first_word(&line) {
                "readyok" => return Ok(()),
                "bestmove" => self.stale_bestmoves = self.stale_bestmoves.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// Sends `setoption name <name> value <value>`.
    ///
    /// The option is not checked against [`Engine::options`]: engines accept
    /// some hidden options, and unknown ones are ignored by the protocol.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        self.ensure_idle()?;
        check_option_name(name)?;
        self.send(&format!("setoption name {} value {}", name.trim(), value))
    }

    /// Presses a button option: `setoption name <name>`.
    pub fn press_button(&mut self, name: &str) -> Result<()> {
        self.ensure_idle()?;
        check_option_name(name)?;
        self.send(&format!("setoption name {}", name.trim()))
    }

    /// Sends `ucinewgame`. Follow it with [`Engine::is_ready`]: engines may
    /// take a while to clear their hash tables.
    pub fn new_game(&mut self) -> Result<()> {
        self.ensure_idle()?;
        self.send("ucinewgame")
    }

    /// Sets the position: `fen_or_startpos` is either the word `startpos`
    /// or a FEN string (optionally prefixed by `fen `); `moves` are UCI
    /// moves played from it.
    pub fn position(&mut self, fen_or_startpos: &str, moves: &[String]) -> Result<()> {
        self.ensure_idle()?;
        let base = fen_or_startpos.trim();
        // Accept "fen <FEN>" too, as it appears in EPD tools and logs.
        let base = base.strip_prefix("fen ").map_or(base, str::trim_start);
        let mut cmd = match base {
            "" | "fen" => return Err(UciError::InvalidArgument("empty FEN".to_owned())),
            "startpos" => String::from("position startpos"),
            fen => format!("position fen {fen}"),
        };
        if !moves.is_empty() {
            check_moves(moves)?;
            cmd.push_str(" moves");
            for m in moves {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        self.send(&cmd)
    }

    /// Starts a search and returns at once; collect its result with
    /// [`Engine::wait_bestmove`].
    ///
    /// If an earlier search timed out, its late `bestmove` is consumed
    /// first (waiting at most the handshake timeout), so it cannot be
    /// mistaken for this search's answer.
    pub fn go(&mut self, params: &GoParams) -> Result<()> {
        self.ensure_idle()?;
        check_moves(&params.searchmoves)?;
        self.drain_stale()?;
        let command = params.to_command();
        let started = Instant::now();
        self.send(&command)?;
        self.search = Some(SearchState { started, stop_sent: false });
        Ok(())
    }

    /// Sends `stop` to the running search (once); does nothing when no
    /// search is running.
    pub fn stop(&mut self) -> Result<()> {
        match self.search {
            Some(SearchState { stop_sent: false, .. }) => {
                self.send("stop")?;
                if let Some(s) = self.search.as_mut() {
                    s.stop_sent = true;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Waits for the running search's `bestmove`, calling `on_info` for each
    /// `info` line as it arrives.
    ///
    /// `limit` counts from the moment `go` was sent. If no `bestmove` has
    /// arrived by then this fails with [`UciError::Timeout`] (awaiting
    /// [`Awaiting::BestMove`]) and sends `stop`; a match runner treats that
    /// as a time forfeit. If the engine dies it fails with
    /// [`UciError::EngineExited`].
    pub fn wait_bestmove<F>(&mut self, limit: Duration, mut on_info: F) -> Result<SearchResult>
    where
        F: FnMut(&Info) -> SearchControl,
    {
        let started = self.search.ok_or(UciError::NoSearch)?.started;
        let deadline = deadline_after(started, limit);
        let mut infos = Vec::new();
        loop {
            let (line, at) = match self.next_line(deadline, limit, Awaiting::BestMove) {
                Ok(line) => line,
                Err(e) => {
                    if e.is_timeout() {
                        // The engine still owes a bestmove; remember to skip
                        // it, and ask for it now so it comes soon.
                        let _ = self.stop();
                        self.stale_bestmoves = self.stale_bestmoves.saturating_add(1);
                    }
                    self.search = None;
                    return Err(e);
                }
            };
            match first_word(&line) {
                "bestmove" => {
                    self.search = None;
                    return Ok(SearchResult {
                        best: parse_bestmove(&line).unwrap_or_default(),
                        infos,
                        elapsed: at.saturating_duration_since(started),
                    });
                }
                "info" => {
                    let info = parse_info(&line);
                    if on_info(&info) == SearchControl::Stop {
                        self.stop()?;
                    }
                    infos.push(info);
                }
                _ => {} // banners, debug output: not part of the protocol
            }
        }
    }

    /// Runs a complete search: [`Engine::go`] then [`Engine::wait_bestmove`]
    /// without a callback.
    pub fn search(&mut self, params: &GoParams, limit: Duration) -> Result<SearchResult> {
        self.search_with(params, limit, |_| SearchControl::Continue)
    }

    /// Runs a complete search, streaming each `info` to `on_info`, which may
    /// return [`SearchControl::Stop`] to end an infinite search.
    pub fn search_with<F>(&mut self, params: &GoParams, limit: Duration, on_info: F) -> Result<SearchResult>
    where
        F: FnMut(&Info) -> SearchControl,
    {
        self.go(params)?;
        self.wait_bestmove(limit, on_info)
    }

    /// Sends `quit` and waits up to `timeout` for the process to exit,
    /// returning its exit status. An engine that does not exit in time is
    /// killed and [`UciError::Timeout`] is returned.
    pub fn quit(mut self, timeout: Duration) -> Result<Option<ExitStatus>> {
        match self.state {
            ProcessState::Reaped(status) => return Ok(status),
            ProcessState::Exited(status) => {
                // Output is closed; make sure the process is really gone.
                let _ = self.child.kill();
                let _ = self.child.wait();
                self.state = ProcessState::Reaped(status);
                return Ok(status);
            }
            ProcessState::Running => {}
        }
        // A broken pipe here just means it already exited; wait() tells.
        let _ = self.send("quit");
        let deadline = deadline_after(Instant::now(), timeout);
        loop {
            if let Some(status) = self.child.try_wait()? {
                self.state = ProcessState::Reaped(Some(status));
                return Ok(Some(status));
            }
            if Instant::now() >= deadline {
                self.kill();
                return Err(UciError::Timeout { awaiting: Awaiting::Exit, limit: timeout });
            }
            thread::sleep(EXIT_POLL);
        }
    }

    /// Kills the process immediately and reaps it.
    pub fn kill(&mut self) {
        if matches!(self.state, ProcessState::Reaped(_)) {
            return;
        }
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        self.state = ProcessState::Reaped(status);
        self.search = None;
    }

    /// The `uci` / `uciok` exchange, collecting id and options.
    fn handshake(&mut self, limit: Duration) -> Result<()> {
        self.send("uci").map_err(|e| match e {
            UciError::EngineExited { status, .. } => UciError::EngineExited { awaiting: Awaiting::UciOk, status },
            other => other,
        })?;
        let deadline = deadline_after(Instant::now(), limit);
        loop {
            let (line, _) = self.next_line(deadline, limit, Awaiting::UciOk)?;
            let line = line.trim();
            match first_word(line) {
                "uciok" => return Ok(()),
                "id" => self.parse_id(line),
                "option" => {
                    if let Some(option) = parse_option(line) {
                        // A repeated name replaces the earlier definition.
                        match self.options.iter_mut().find(|o| o.name == option.name) {
                            Some(existing) => *existing = option,
                            None => self.options.push(option),
                        }
                    }
                }
                _ => {} // banners such as Stockfish's copyright line
            }
        }
    }

    /// Records `id name ...` or `id author ...`.
    fn parse_id(&mut self, line: &str) {
        let rest = line.strip_prefix("id").unwrap_or(line).trim_start();
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim().to_owned();
        match key {
            "name" => self.id.name = Some(value),
            "author" => self.id.author = Some(value),
            _ => {}
        }
    }

    /// Consumes `bestmove` lines owed by timed-out searches.
    fn drain_stale(&mut self) -> Result<()> {
        if self.stale_bestmoves == 0 {
            return Ok(());
        }
        let limit = self.sync_timeout;
        let deadline = deadline_after(Instant::now(), limit);
        while self.stale_bestmoves > 0 {
            let (line, _) = self.next_line(deadline, limit, Awaiting::StaleBestMove)?;
            if first_word(&line) == "bestmove" {
                self.stale_bestmoves -= 1;
            }
        }
        Ok(())
    }

    /// Reads the next output line, waiting until `deadline` at most.
    ///
    /// A line the reader thread received after the deadline counts as a
    /// timeout (an engine flooding `info` lines must not extend its time);
    /// it is kept for the next read so that a late `bestmove` is not lost.
    fn next_line(&mut self, deadline: Instant, limit: Duration, awaiting: Awaiting) -> Result<(String, Instant)> {
        let timeout = UciError::Timeout { awaiting, limit };
        if let Some((text, at)) = self.pushback.take() {
            if at > deadline {
                self.pushback = Some((text, at));
                return Err(timeout);
            }
            return Ok((text, at));
        }
        self.ensure_alive(awaiting)?;
        let Some(lines) = self.lines.as_ref() else {
            return Err(self.mark_exited(awaiting));
        };
        let remaining = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(remaining) {
            Ok(Event::Line { text, at }) if at > deadline => {
                self.pushback = Some((text, at));
                Err(timeout)
            }
            Ok(Event::Line { text, at }) => Ok((text, at)),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.mark_exited(awaiting)),
            Err(RecvTimeoutError::Timeout) => Err(timeout),
        }
    }

    /// Fails if the process is known to be gone.
    fn ensure_alive(&self, awaiting: Awaiting) -> Result<()> {
        match self.state {
            ProcessState::Running => Ok(()),
            ProcessState::Exited(status) | ProcessState::Reaped(status) => {
                Err(UciError::EngineExited { awaiting, status })
            }
        }
    }

    /// Fails if a search is running: the protocol forbids most commands
    /// then, and reading answers would swallow the search's output.
    fn ensure_idle(&self) -> Result<()> {
        if self.search.is_some() {
            return Err(UciError::SearchInProgress);
        }
        Ok(())
    }

    /// Records that the engine's output ended and builds the error for it,
    /// with the exit status if the process exits within a short grace time.
    fn mark_exited(&mut self, awaiting: Awaiting) -> UciError {
        let status = match self.state {
            ProcessState::Exited(status) | ProcessState::Reaped(status) => status,
            ProcessState::Running => {
                let deadline = Instant::now() + EXIT_GRACE;
                let status = loop {
                    match self.child.try_wait() {
                        Ok(Some(status)) => break Some(status),
                        Ok(None) if Instant::now() < deadline => thread::sleep(EXIT_POLL),
                        // Closed its output but keeps running (or cannot be
                        // queried): useless either way. Drop will kill it;
                        // its status would only show our own kill signal.
                        _ => break None,
                    }
                };
                self.state = ProcessState::Exited(status);
                status
            }
        };
        self.search = None;
        UciError::EngineExited { awaiting, status }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `start + limit`, without the panic `Instant + Duration` has on overflow
/// (e.g. for `Duration::MAX`, a natural way to say "no limit").
fn deadline_after(start: Instant, limit: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);
    start.checked_add(limit).or_else(|| start.checked_add(CENTURY)).unwrap_or(start)
}

/// First whitespace-separated word of a line ("" for a blank line).
fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Rejects option names that would produce a malformed `setoption`.
fn check_option_name(name: &str) -> Result<()> {
    if name.trim().is_empty() {
        return Err(UciError::InvalidArgument("empty option name".to_owned()));
    }
    Ok(())
}

/// Rejects anything that is not a single UCI move token, so a bad move list
/// cannot inject extra tokens or commands.
fn check_moves(moves: &[String]) -> Result<()> {
    match moves.iter().find(|m| !is_uci_move(m)) {
        Some(bad) => Err(UciError::InvalidArgument(format!("not a UCI move: {bad:?}"))),
        None => Ok(()),
    }
}
