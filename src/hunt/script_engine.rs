//! A perftree-style script: `CMD "$depth" "$fen" "$moves"` per request, printing `move count`
//! lines, a blank line and the total. Each call has a deadline; a script that overruns it is
//! killed.
//!
//! Each call runs in a process group of its own, killed whole: a script is often a shell
//! wrapper around the engine, and killing the shell alone would leave the engine counting
//! (and holding the output pipe open). Running apart from the terminal's group, the script no
//! longer sees Ctrl-C, so `vkperft hunt` kills the running group on SIGINT
//! ([`kill_running_script`]).

use super::divide_output::EngineDivide;
use super::engine::{EngineUnderTest, PositionRequest};
use super::error::HuntError;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// The process group of the script call under way, 0 when none.
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// Kills the script call under way, with every process it started. For a signal handler: it
/// only sends a signal.
pub fn kill_running_script() {
    let group = RUNNING_GROUP.load(Ordering::SeqCst);
    if group != 0 {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
}

/// A script call's process group, registered for [`kill_running_script`] while it lives and
/// killed when dropped: what the script left running, or all of it when it overran.
struct ScriptGroup(i32);

impl ScriptGroup {
    fn register(leader: u32) -> ScriptGroup {
        // A process id fits in an i32 (pid_t).
        let group = leader as i32;
        RUNNING_GROUP.store(group, Ordering::SeqCst);
        ScriptGroup(group)
    }
}

impl Drop for ScriptGroup {
    fn drop(&mut self) {
        RUNNING_GROUP.store(0, Ordering::SeqCst);
        let _ = killpg(Pid::from_raw(self.0), Signal::SIGKILL);
    }
}

pub struct ScriptEngine {
    command: String,
    timeout: Duration,
}

impl ScriptEngine {
    pub fn new(command: &str, timeout: Duration) -> ScriptEngine {
        ScriptEngine {
            command: command.to_string(),
            timeout,
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
        let group = ScriptGroup::register(child.id());
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
