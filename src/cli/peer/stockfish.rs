//! Stockfish as a peer: `go perft` over UCI, one process for the whole run.
//!
//! Its output is read on a thread of its own, so that waiting for it can notice Ctrl-C: the
//! peer is then killed (Stockfish does not stop a `go perft` for `quit`).

use crate::cli::error::CliError;
use crate::cli::interrupt;
use anyhow::{anyhow, Context};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};
use vkperft::child_lines::{read_lines, LineTooLong};

pub struct Stockfish {
    child: Child,
    stdin: ChildStdin,
    /// The peer's stdout, line by line; disconnected at its end.
    lines: Receiver<Result<String, LineTooLong>>,
    path: PathBuf,
}

/// Finds the program: a path as given, or `stockfish` on PATH or in /usr/games (Debian).
pub fn locate(spec: &str) -> anyhow::Result<PathBuf> {
    if spec.contains('/') {
        return Ok(PathBuf::from(spec));
    }
    let dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    dirs.into_iter()
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(spec))
        .find(|path| path.is_file())
        .ok_or_else(|| {
            anyhow!("peer '{spec}' not found on PATH or in /usr/games (Debian package `stockfish`)")
        })
}

impl Stockfish {
    /// Starts the peer and waits for its UCI handshake. A peer that cannot be found or started
    /// is bad input.
    pub fn start(path: &Path) -> Result<Stockfish, CliError> {
        let path = path.to_path_buf();
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", path.display()))
            .map_err(CliError::input)?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => return Err(CliError::runtime(anyhow!("the peer's pipes are missing"))),
        };
        let lines = read_lines(stdout, "vkperft-peer-output").map_err(CliError::runtime)?;
        let mut peer = Stockfish {
            child,
            stdin,
            lines,
            path,
        };
        // A program that does not speak UCI is bad input too.
        let handshake = peer
            .send("uci")
            .and_then(|()| peer.read_until(|line| line == "uciok", None));
        match handshake {
            Ok(_) => Ok(peer),
            Err(CliError::Runtime(err)) => Err(CliError::Input(err)),
            Err(err) => Err(err),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), CliError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("writing to {}", self.path.display()))
            .map_err(CliError::runtime)
    }

    /// The first line of output for which `done` holds. Ctrl-C ends the wait (and the peer);
    /// the interruption then reports the time since `since`.
    fn read_until(
        &mut self,
        mut done: impl FnMut(&str) -> bool,
        since: Option<Instant>,
    ) -> Result<String, CliError> {
        let interrupted = |peer: &mut Stockfish| {
            peer.stop();
            CliError::Interrupted {
                elapsed: since.map(|start| start.elapsed()),
                nodes: None,
            }
        };
        loop {
            if interrupt::requested() {
                return Err(interrupted(self));
            }
            match self.lines.recv_timeout(interrupt::POLL) {
                Ok(Ok(line)) if done(line.trim()) => return Ok(line.trim().to_string()),
                Ok(Ok(_)) | Err(RecvTimeoutError::Timeout) => {}
                Ok(Err(too_long)) => {
                    self.stop();
                    return Err(CliError::runtime(anyhow!(
                        "{}: {too_long}",
                        self.path.display()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Killed before the wait: a peer that closed its output may still run.
                    self.stop();
                    // Ctrl-C in a terminal reaches the peer too, which may end before this
                    // process has seen its own signal.
                    std::thread::sleep(interrupt::POLL);
                    if interrupt::requested() {
                        return Err(interrupted(self));
                    }
                    return Err(CliError::runtime(anyhow!(
                        "{} exited unexpectedly",
                        self.path.display()
                    )));
                }
            }
        }
    }

    /// Runs `go perft depth` on `fen`; returns the node count and the time from `go` to the
    /// total (process start and position setup excluded).
    pub fn perft(&mut self, fen: &str, depth: u32) -> Result<(u128, Duration), CliError> {
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.read_until(|line| line == "readyok", None)?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.read_until(|line| line.starts_with("Nodes searched:"), Some(start))?;
        let elapsed = start.elapsed();
        let nodes = line
            .trim_start_matches("Nodes searched:")
            .trim()
            .parse()
            .with_context(|| format!("unexpected peer output: {line}"))
            .map_err(CliError::runtime)?;
        Ok((nodes, elapsed))
    }

    /// Ends the peer at once, whatever it is doing.
    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a peer told to quit may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

impl Drop for Stockfish {
    fn drop(&mut self) {
        if !interrupt::requested() && self.send("quit").is_ok() {
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.stop();
    }
}
