//! Text and JSON renderings of results.

use super::error::{CliError, CliResult};
use serde_json::{json, Value};
use std::io::{ErrorKind, Write};
use vkperft::engine::PerftResult;

/// Writes to stdout. A closed pipe (`vkperft ... | head`) ends output quietly, as in other
/// command-line tools, instead of the panic `print!` would raise.
pub fn write_stdout(text: &str) -> CliResult {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() != ErrorKind::BrokenPipe => Err(CliError::runtime(err)),
        _ => Ok(()),
    }
}

/// Writes to stderr; there is nowhere left to report a failure to.
pub fn write_stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Stockfish's format with `--divide`; otherwise the total, time and node rate.
pub fn perft_text(result: &PerftResult, divide: bool) -> String {
    if divide {
        result.divide_text()
    } else {
        format!(
            "Nodes searched: {}\n{}{}",
            result.counts.nodes,
            result.stats_text(),
            result.timing_text()
        )
    }
}

/// perftree's script format: `move count` lines, a blank line, the total.
pub fn perftree_text(result: &PerftResult) -> String {
    let mut text = String::new();
    for (m, counts) in &result.divide {
        text += &format!("{m} {}\n", counts.nodes);
    }
    text += &format!("\n{}\n", result.counts.nodes);
    text
}

/// The TT table and risk line, and the cross-check's verdict, for text output.
pub fn details_text(result: &PerftResult, cross_check: Option<&PerftResult>) -> String {
    let mut text = result.tt_text() + &result.work.render_text();
    if let Some(second) = cross_check {
        let verdict = if agrees(result, second) {
            "agrees"
        } else {
            "DIFFERS"
        };
        text += &format!(
            "Cross-check with Zobrist seed {:#x}: {} nodes, {verdict}\n",
            second.zobrist_seed, second.counts.nodes
        );
    }
    text
}

pub fn perft_json(result: &PerftResult, divide: bool, cross_check: Option<&PerftResult>) -> Value {
    let mut value = result.to_json(divide);
    if let Some(second) = cross_check {
        value["cross_check"] = json!({
            "zobrist_seed": format!("{:#x}", second.zobrist_seed),
            "nodes": second.counts.nodes.to_string(),
            "agrees": agrees(result, second),
        });
    }
    value
}

/// Whether a cross-check's run agrees with the first: the same nodes, and the same statistics
/// when they were counted.
pub fn agrees(result: &PerftResult, second: &PerftResult) -> bool {
    second.counts.nodes == result.counts.nodes && second.counts.stats == result.counts.stats
}
