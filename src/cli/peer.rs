//! A peer perft program run beside vkperft in benchmarks: Stockfish's `go perft`.

use anyhow::{anyhow, bail, Context};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Stockfish {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    pub path: PathBuf,
}

/// Finds the program: a path as given, or `stockfish` on PATH or in /usr/games (Debian).
fn locate(spec: &str) -> anyhow::Result<PathBuf> {
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
    pub fn start(spec: &str) -> anyhow::Result<Stockfish> {
        let path = locate(spec)?;
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", path.display()))?;
        let stdin = child.stdin.take().context("peer stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("peer stdout")?);
        let mut peer = Stockfish {
            child,
            stdin,
            stdout,
            path,
        };
        peer.send("uci")?;
        peer.read_until(|line| line == "uciok")?;
        Ok(peer)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("writing to {}", self.path.display()))
    }

    fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> anyhow::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("{} exited unexpectedly", self.path.display());
            }
            if done(line.trim()) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// Runs `go perft depth` on `fen`; returns the node count and the time from `go` to the
    /// total (process start and position setup excluded).
    pub fn perft(&mut self, fen: &str, depth: u32) -> anyhow::Result<(u128, Duration)> {
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.read_until(|line| line == "readyok")?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.read_until(|line| line.starts_with("Nodes searched:"))?;
        let elapsed = start.elapsed();
        let nodes = line
            .trim_start_matches("Nodes searched:")
            .trim()
            .parse()
            .with_context(|| format!("unexpected peer output: {line}"))?;
        Ok((nodes, elapsed))
    }

    pub fn name(&self) -> String {
        Path::new(&self.path)
            .file_name()
            .map_or_else(|| "peer".to_string(), |n| n.to_string_lossy().into_owned())
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
