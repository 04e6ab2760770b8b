//! A result as text (Stockfish's divide format plus timing and TT lines) and as JSON in the
//! shape of `vkperft perft --divide --json`.

use super::format;
use crate::engine::PerftResult;
use serde_json::Value;

pub fn result_text(result: &PerftResult) -> String {
    let mut text = format!(
        "Position: {}\nDepth: {}\n\n",
        result.position.to_fen(),
        result.depth
    );
    for (mv, counts) in &result.divide {
        text += &format!("{mv}: {}\n", counts.nodes);
    }
    text += &format!(
        "\nNodes searched: {}\nTime: {:.3} s\nNodes/second: {}\nBackend: {} ({} threads), TT {}\n",
        result.counts.nodes,
        result.elapsed.as_secs_f64(),
        format::rate(result.nps()),
        result.backend,
        result.threads,
        result.tt_mode
    );
    if let Some(tt) = &result.tt {
        text += &tt.render_text(result.fast_total(), result.counts.nodes);
    }
    text
}

pub fn result_json(result: &PerftResult) -> Value {
    result.to_json(true)
}
