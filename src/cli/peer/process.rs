//! One run of a peer program that counts one perft per process, timed as the wall time of the
//! whole process. Waiting for it notices Ctrl-C, which kills it.

use crate::cli::error::CliError;
use crate::cli::interrupt;
use anyhow::{anyhow, Context};
use crossbeam_channel::RecvTimeoutError;
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// From just before the process was started to its exit.
    pub elapsed: Duration,
}

/// Reads a pipe to its end on a thread of its own; the text arrives when the pipe closes.
fn drain(
    mut pipe: impl Read + Send + 'static,
) -> Result<crossbeam_channel::Receiver<String>, CliError> {
    let (sender, text) = crossbeam_channel::bounded(1);
    std::thread::Builder::new()
        .name("vkperft-peer-output".into())
        .spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
        })
        .map_err(CliError::runtime)?;
    Ok(text)
}

pub fn run(path: &Path, arguments: &[String]) -> Result<Finished, CliError> {
    let start = Instant::now();
    // A program that waits for a key before it exits (Gigantua) finds the end of its input.
    let mut child = Command::new(path)
        .args(arguments)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", path.display()))
        .map_err(CliError::runtime)?;
    let (stdout, stderr) = match (child.stdout.take(), child.stderr.take()) {
        (Some(stdout), Some(stderr)) => (drain(stdout)?, drain(stderr)?),
        _ => return Err(CliError::runtime(anyhow!("the peer's pipes are missing"))),
    };
    let interrupted = |child: &mut std::process::Child| {
        let _ = child.kill();
        let _ = child.wait();
        CliError::Interrupted {
            elapsed: Some(start.elapsed()),
            nodes: None,
        }
    };
    let stdout = loop {
        if interrupt::requested() {
            return Err(interrupted(&mut child));
        }
        match stdout.recv_timeout(interrupt::POLL) {
            Ok(text) => break text,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break String::new(),
        }
    };
    let status = child
        .wait()
        .with_context(|| format!("waiting for {}", path.display()))
        .map_err(CliError::runtime)?;
    let elapsed = start.elapsed();
    if !status.success() {
        // Ctrl-C in a terminal reaches the peer too, which may end before this process has
        // seen its own signal.
        std::thread::sleep(interrupt::POLL);
        if interrupt::requested() {
            return Err(interrupted(&mut child));
        }
    }
    Ok(Finished {
        status,
        stdout,
        stderr: stderr.recv().unwrap_or_default(),
        elapsed,
    })
}

/// The last non-empty line of a peer's output, to end a message with, or nothing.
pub fn last_words(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .map_or_else(String::new, |line| format!(": {line}"))
}
