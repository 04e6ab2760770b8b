//! A perftree-style script: `CMD "$depth" "$fen" "$moves"` per request, printing `move count`
//! lines, a blank line and the total. Each call has a deadline; a script that overruns it is
//! killed.
//!
//! Each call runs in a process group of its own, killed whole ([`EngineProcess`]).

use super::divide_output::EngineDivide;
use super::engine::{EngineUnderTest, PositionRequest};
use super::engine_process::EngineProcess;
use super::error::{exit_status_text, HuntError};
use crate::child_lines::MAX_LINE_BYTES;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most a script's answer may hold: a divide of 218 moves is a few KiB.
const MAX_OUTPUT_BYTES: u64 = 16 << 20;

pub struct ScriptEngine {
    command: String,
    timeout: Duration,
    process: Arc<EngineProcess>,
}

impl ScriptEngine {
    /// Each call of `command` may take `timeout`; its processes are registered in `process`.
    pub fn new(command: &str, timeout: Duration, process: Arc<EngineProcess>) -> ScriptEngine {
        ScriptEngine {
            command: command.to_string(),
            timeout,
            process,
        }
    }

    /// The script's output for one request, once it exited successfully within the timeout.
    fn call(&self, position: &PositionRequest, depth: u32) -> Result<String, HuntError> {
        let request = format!(
            "{} {depth} \"{}\" \"{}\"",
            self.command,
            position.fen,
            position.moves.join(" ")
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{} \"$@\"", self.command))
            .arg("sh")
            .arg(depth.to_string())
            .arg(&position.fen)
            .arg(position.moves.join(" "))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|err| HuntError::Start {
                command: self.command.clone(),
                reason: err.to_string(),
            })?;
        self.process.asked(&request);
        let group = self.process.started(child.id());
        let mut stdout = child.stdout.take().ok_or_else(|| HuntError::Start {
            command: self.command.clone(),
            reason: "its output pipe is missing".into(),
        })?;
        // Bytes, decoded lossily, and at most MAX_OUTPUT_BYTES of them: a script that writes
        // more is killed then, not at its deadline.
        let mut reader = Some(std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = (&mut stdout)
                .take(MAX_OUTPUT_BYTES + 1)
                .read_to_end(&mut bytes);
            bytes
        }));
        let mut output = None;
        let too_long = |request: String| HuntError::LineTooLong {
            command: self.command.clone(),
            position: request,
        };
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            if let Some(done) = reader.take_if(|reader| reader.is_finished()) {
                let bytes = done.join().unwrap_or_default();
                if bytes.len() as u64 > MAX_OUTPUT_BYTES {
                    drop(group);
                    let _ = child.wait();
                    return Err(too_long(request));
                }
                output = Some(bytes);
            }
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    drop(group);
                    let _ = child.wait();
                    return Err(HuntError::Timeout {
                        command: self.command.clone(),
                        seconds: self.timeout.as_secs(),
                        position: request,
                    });
                }
            }
        };
        // Whatever the script left running may hold its output open.
        drop(group);
        let output = match (output, reader) {
            (Some(output), _) => output,
            (None, Some(reader)) => reader.join().unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        if !status.success() {
            return Err(HuntError::Exited {
                command: self.command.clone(),
                status: exit_status_text(status),
                position: request,
            });
        }
        if output.len() as u64 > MAX_OUTPUT_BYTES
            || output
                .split(|&b| b == b'\n')
                .any(|line| line.len() > MAX_LINE_BYTES)
        {
            return Err(too_long(request));
        }
        Ok(String::from_utf8_lossy(&output).into_owned())
    }
}

impl EngineUnderTest for ScriptEngine {
    fn divide(
        &mut self,
        position: &PositionRequest,
        depth: u32,
    ) -> Result<EngineDivide, HuntError> {
        let output = self.call(position, depth)?;
        let request = position.uci_command();
        let mut divide = EngineDivide::default();
        for line in output.lines() {
            if let Err(bad) = divide.read_line(line) {
                return Err(bad.error(&self.command, line, &request));
            }
        }
        // Empty output is no answer, not an engine that knows no move.
        if divide.total.is_none() {
            return Err(HuntError::NoTotal {
                command: self.command.clone(),
                position: request,
            });
        }
        Ok(divide)
    }
}
