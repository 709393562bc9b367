//! Configuring and starting engine processes.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::Engine;
use crate::error::{Result, UciError};

/// Default time allowed for the `uci` handshake.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What to do with the engine's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StderrMode {
    /// Keep the last lines in memory for [`Engine::stderr_tail`].
    #[default]
    Capture,
    /// Send it to `/dev/null`.
    Discard,
    /// Let it go to this process's stderr.
    Inherit,
}

/// Configures and starts an engine process; see [`Engine::builder`].
#[derive(Debug, Clone)]
pub struct EngineBuilder {
    program: String,
    args: Vec<String>,
    current_dir: Option<PathBuf>,
    stderr: StderrMode,
    handshake_timeout: Duration,
}

impl EngineBuilder {
    /// Starts configuring `program` (a path or a name looked up in `PATH`).
    pub fn new(program: impl Into<String>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            current_dir: None,
            stderr: StderrMode::default(),
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
        }
    }

    /// Splits a full command line shell-style (quotes and backslashes as in
    /// POSIX `sh`, no expansion) into program and arguments.
    pub fn from_command_line(line: &str) -> Result<Self> {
        let words = shlex::split(line).ok_or_else(|| UciError::BadCommandLine(line.to_owned()))?;
        let mut words = words.into_iter();
        let program = words.next().ok_or(UciError::EmptyCommand)?;
        Ok(Self::new(program).args(words))
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Appends several arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Runs the engine in `dir` (engines often look for network files
    /// relative to their working directory).
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Chooses what happens to the engine's stderr (default: capture).
    pub fn stderr(mut self, mode: StderrMode) -> Self {
        self.stderr = mode;
        self
    }

    /// Time allowed for `uciok`, and for catching up after a timed-out
    /// search (default [`DEFAULT_HANDSHAKE_TIMEOUT`]).
    pub fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.handshake_timeout = timeout;
        self
    }

    /// Starts the process and performs the `uci` handshake.
    ///
    /// If the handshake fails the process is killed before returning.
    pub fn spawn(self) -> Result<Engine> {
        if self.program.is_empty() {
            return Err(UciError::EmptyCommand);
        }
        let mut command = Command::new(&self.program);
        command.args(&self.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(match self.stderr {
            StderrMode::Capture => Stdio::piped(),
            StderrMode::Discard => Stdio::null(),
            StderrMode::Inherit => Stdio::inherit(),
        });
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        let child = command.spawn().map_err(|source| UciError::Spawn { program: self.program.clone(), source })?;
        Engine::start(child, &self.program, self.handshake_timeout)
    }
}
