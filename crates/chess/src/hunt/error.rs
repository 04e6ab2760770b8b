//! What can go wrong with the engine under test. Every error names the command and the last
//! position it was sent.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum HuntError {
    #[error("cannot start `{command}`: {reason}")]
    Start { command: String, reason: String },
    #[error("`{command}` did not complete the UCI handshake (`uci` -> `uciok`): {reason}")]
    Handshake { command: String, reason: String },
    #[error("`{command}` gave no answer within {seconds} s to `{position}`")]
    Timeout {
        command: String,
        seconds: u64,
        position: String,
    },
    #[error("`{command}` exited ({status}) while answering `{position}`")]
    Exited {
        command: String,
        status: String,
        position: String,
    },
    #[error(
        "`{command}` printed a line that is not part of a divide, answering `{position}`: {line:?}"
    )]
    Garbage {
        command: String,
        line: String,
        position: String,
    },
    #[error("`{command}` printed a line longer than {} KiB answering `{position}`: not a divide", crate::child_lines::MAX_LINE_BYTES / 1024)]
    LineTooLong { command: String, position: String },
    #[error("`{command}` gave no total answering `{position}` (a divide ends with `Nodes searched: N`, or a blank line and the number)")]
    NoTotal { command: String, position: String },
    #[error("`{command}` listed {mv} twice, answering `{position}`")]
    RepeatedMove {
        command: String,
        mv: String,
        position: String,
    },
    #[error("`{command}` cannot be written to: {reason}")]
    Write { command: String, reason: String },
    #[error("`{command}` failed answering `{position}`: {reason}")]
    Failed {
        command: String,
        reason: String,
        position: String,
    },
    #[error("the walk needed more than {limit} engine queries (at {path})")]
    QueryLimit { limit: usize, path: String },
}

impl HuntError {
    /// The error without the command's name, for a message that names it already.
    pub fn reason(&self) -> String {
        match self {
            HuntError::Timeout {
                seconds, position, ..
            } => format!("no answer within {seconds} s to `{position}`"),
            HuntError::Exited {
                status, position, ..
            } => format!("it exited ({status}) while answering `{position}`"),
            HuntError::Start { reason, .. }
            | HuntError::Handshake { reason, .. }
            | HuntError::Write { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }
}

/// An engine's exit status in words: the shell's 127 and 126 say the command was not found or
/// could not be run, which the bare number does not tell.
pub fn exit_status_text(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) => format!("{status}: command not found"),
        Some(126) => format!("{status}: command found but not executable"),
        _ => status.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::exit_status_text;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    #[test]
    fn the_shells_codes_are_named() {
        assert_eq!(
            exit_status_text(ExitStatus::from_raw(127 << 8)),
            "exit status: 127: command not found"
        );
        assert_eq!(
            exit_status_text(ExitStatus::from_raw(126 << 8)),
            "exit status: 126: command found but not executable"
        );
        assert_eq!(
            exit_status_text(ExitStatus::from_raw(1 << 8)),
            "exit status: 1"
        );
    }
}
