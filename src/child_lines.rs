//! A child process's stdout read line by line on a thread of its own, so that a wait for its
//! next line can have a deadline or notice Ctrl-C (UCI engines under test, Stockfish as a
//! bench peer).

use crossbeam_channel::Receiver;
use std::io::{self, BufRead, BufReader};
use std::process::ChildStdout;

/// The lines of `stdout`, sent by a thread named `thread_name`; the channel disconnects at the
/// end of the output or at the first read error.
pub fn read_lines(stdout: ChildStdout, thread_name: &str) -> io::Result<Receiver<String>> {
    let (line_tx, lines) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name(thread_name.into())
        .spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line_tx.send(line).is_err() {
                    break;
                }
            }
        })?;
    Ok(lines)
}
