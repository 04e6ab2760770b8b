//! A perftree-style script: `CMD "$depth" "$fen" "$moves"` per request, printing `move count`
//! lines, a blank line and the total. Each call has a deadline; a script that overruns it is
//! killed.
//!
//! Each call runs in a process group of its own, killed whole ([`EngineProcess`]).

use super::divide_output::EngineDivide;
use super::engine::{EngineUnderTest, PositionRequest};
use super::engine_process::EngineProcess;
use super::error::HuntError;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        let deadline = Instant::now() + self.timeout;
        let status = loop {
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
        let output = reader.join().unwrap_or_default();
        if !status.success() {
            return Err(HuntError::Exited {
                command: self.command.clone(),
                status: status.to_string(),
                position: request,
            });
        }
        Ok(output)
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
        Ok(divide)
    }
}
