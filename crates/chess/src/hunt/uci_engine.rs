//! A UCI engine as a child process: `uci`/`uciok` once, then per request `position ...`,
//! `isready`/`readyok` and `go perft N`, its divide read up to the total line. Every wait has
//! a deadline, so an engine that hangs is an error, not a hang.
//!
//! The command line runs through `sh -c`, so environment prefixes (`BUG=ep ./engine`) and
//! wrappers work, in a process group of its own ([`EngineProcess`]).

use super::divide_output::EngineDivide;
use super::engine::{EngineUnderTest, PositionRequest};
use super::engine_process::{EngineProcess, GroupGuard};
use super::error::{exit_status_text, HuntError};
use crate::child_lines::{read_lines, LineTooLong};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct UciEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's stdout, line by line; disconnected at its end.
    lines: Receiver<Result<String, LineTooLong>>,
    timeout: Duration,
    process: Arc<EngineProcess>,
    /// Kills the engine's process group when the engine is dropped.
    group: Option<GroupGuard>,
}

impl UciEngine {
    /// Starts `command` (a shell command line) and completes the UCI handshake, then sets
    /// `UCI_Chess960` when `chess960`; its processes are registered in `process`.
    pub fn start(
        command: &str,
        timeout: Duration,
        chess960: bool,
        process: Arc<EngineProcess>,
    ) -> Result<UciEngine, HuntError> {
        let start_error = |reason: String| HuntError::Start {
            command: command.to_string(),
            reason,
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|err| start_error(err.to_string()))?;
        let group = process.started(child.id());
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(start_error("its pipes are missing".into()));
        };
        let lines = read_lines(stdout, "vkperft-hunt-engine")
            .map_err(|err| start_error(err.to_string()))?;
        let mut engine = UciEngine {
            command: command.to_string(),
            child,
            stdin,
            lines,
            timeout,
            process,
            group: Some(group),
        };
        let handshake = engine
            .send("uci", "uci")
            .and_then(|()| engine.read_until("uci", |line| line == "uciok"))
            .and_then(|()| {
                if chess960 {
                    engine.send("setoption name UCI_Chess960 value true", "uci")
                } else {
                    Ok(())
                }
            });
        match handshake {
            Ok(()) => Ok(engine),
            Err(err) => Err(HuntError::Handshake {
                command: command.to_string(),
                reason: err.reason(),
            }),
        }
    }

    fn send(&mut self, line: &str, position: &str) -> Result<(), HuntError> {
        self.process.asked(position);
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.exited(position))
    }

    /// The error for an engine whose output ended (or whose input closed).
    fn exited(&mut self, position: &str) -> HuntError {
        // Its exit status, if it has one within a moment.
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break exit_status_text(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => break "its output ended".to_string(),
            }
        };
        HuntError::Exited {
            command: self.command.clone(),
            status,
            position: position.to_string(),
        }
    }

    /// The next line of output, waiting until `deadline`.
    fn next_line(&mut self, deadline: Instant, position: &str) -> Result<String, HuntError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(LineTooLong)) => Err(HuntError::LineTooLong {
                command: self.command.clone(),
                position: position.to_string(),
            }),
            Err(RecvTimeoutError::Timeout) => Err(HuntError::Timeout {
                command: self.command.clone(),
                seconds: self.timeout.as_secs(),
                position: position.to_string(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited(position)),
        }
    }

    /// Skips output until a line for which `done` holds, within the timeout.
    fn read_until(&mut self, position: &str, done: impl Fn(&str) -> bool) -> Result<(), HuntError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            if done(self.next_line(deadline, position)?.trim()) {
                return Ok(());
            }
        }
    }
}

impl EngineUnderTest for UciEngine {
    fn divide(
        &mut self,
        position: &PositionRequest,
        depth: u32,
    ) -> Result<EngineDivide, HuntError> {
        let request = position.uci_command();
        self.send(&request, &request)?;
        self.send("isready", &request)?;
        self.read_until(&request, |line| line == "readyok")?;
        // Errors from here on name the request the engine was answering.
        let go = format!("go perft {depth}");
        let waiting = format!("{go}` after `{request}");
        self.send(&go, &waiting)?;
        let deadline = Instant::now() + self.timeout;
        let mut divide = EngineDivide::default();
        loop {
            let line = self.next_line(deadline, &waiting)?;
            match divide.read_line(&line) {
                Ok(true) => return Ok(divide),
                Ok(false) => {}
                Err(bad) => return Err(bad.error(&self.command, &line, &request)),
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        drop(self.group.take());
        let _ = self.child.wait();
    }
}
