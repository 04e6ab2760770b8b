//! A child process's stdout read line by line on a thread of its own, so that a wait for its
//! next line can have a deadline or notice Ctrl-C (UCI engines under test, Stockfish as a
//! bench peer).
//!
//! Output is read as bytes: a byte that is not UTF-8 (an author's name in Latin-1) becomes
//! U+FFFD instead of ending the output. A line may hold at most [`MAX_LINE_BYTES`]: an engine
//! that writes without line breaks would otherwise grow this process's memory until its
//! deadline. The channel holds a bounded number of lines, so a fast writer waits for the
//! reader.

use crossbeam_channel::Receiver;
use std::io::{self, BufRead, BufReader, Read};
use thiserror::Error;

/// The longest line read from a child, in bytes (without its line break). A divide line is a
/// few dozen bytes; `info string` lines a few hundred.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read ahead of the reader.
const LINES_AHEAD: usize = 1024;

/// A line longer than [`MAX_LINE_BYTES`]: the output ends there.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("it printed a line longer than {} KiB", MAX_LINE_BYTES / 1024)]
pub struct LineTooLong;

/// The lines of `output`, sent by a thread named `thread_name`; the channel disconnects at the
/// end of the output, at the first read error, or after a line too long (sent as the error).
pub fn read_lines(
    output: impl Read + Send + 'static,
    thread_name: &str,
) -> io::Result<Receiver<Result<String, LineTooLong>>> {
    let (line_tx, lines) = crossbeam_channel::bounded(LINES_AHEAD);
    std::thread::Builder::new()
        .name(thread_name.into())
        .spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let line = match read_line(&mut reader) {
                    Ok(Some(line)) => Ok(line),
                    Ok(None) | Err(ReadError::Io) => break,
                    Err(ReadError::TooLong) => Err(LineTooLong),
                };
                let last = line.is_err();
                if line_tx.send(line).is_err() || last {
                    break;
                }
            }
        })?;
    Ok(lines)
}

enum ReadError {
    Io,
    TooLong,
}

/// The next line of `reader` without its line break (`\n` or `\r\n`), decoded lossily; `None`
/// at the end of the output.
fn read_line(reader: &mut impl BufRead) -> Result<Option<String>, ReadError> {
    let mut line = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(ReadError::Io),
        };
        if buffer.is_empty() {
            return Ok((!line.is_empty()).then(|| text_of(&line)));
        }
        let (taken, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let body = if ended { &buffer[..taken - 1] } else { buffer };
        if line.len() + body.len() > MAX_LINE_BYTES {
            return Err(ReadError::TooLong);
        }
        line.extend_from_slice(body);
        reader.consume(taken);
        if ended {
            return Ok(Some(text_of(&line)));
        }
    }
}

fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &'static [u8]) -> Vec<Result<String, LineTooLong>> {
        let lines = read_lines(bytes, "test-lines").expect("a thread");
        lines.iter().collect()
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced_and_the_output_goes_on() {
        assert_eq!(
            lines_of(b"id author J\xf6rg\r\nuciok\nlast"),
            vec![
                Ok("id author J\u{fffd}rg".to_string()),
                Ok("uciok".to_string()),
                Ok("last".to_string())
            ]
        );
    }

    #[test]
    fn a_line_too_long_ends_the_output_with_an_error() {
        let long: &'static [u8] = Box::leak(
            [
                &b"uciok\n"[..],
                &vec![b'x'; MAX_LINE_BYTES + 1],
                b"\nnever\n",
            ]
            .concat()
            .into_boxed_slice(),
        );
        assert_eq!(
            lines_of(long),
            vec![Ok("uciok".to_string()), Err(LineTooLong)]
        );
        let longest: &'static [u8] = Box::leak(
            [&vec![b'y'; MAX_LINE_BYTES][..], b"\n"]
                .concat()
                .into_boxed_slice(),
        );
        assert_eq!(lines_of(longest), vec![Ok("y".repeat(MAX_LINE_BYTES))]);
    }
}
