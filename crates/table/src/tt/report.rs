//! The statistics as plain data, as JSON for `--json`, and as a short text table for the CLI.

use super::compact::{compact_verifier_bits, COMPACT_DEPTH};
use super::mode::TtMode;
use super::risk::Risk;
use super::serde_u128;
use super::shape::TableShape;
use super::stats::{summarize_depth_words, DepthStats, TtCounters};
use serde::Serialize;
use std::fmt::Write;

/// The chance of at least one false hit above which a fast count is shown as at risk, with
/// the advice to count again exactly.
pub const NEGLIGIBLE_P_ANY: f64 = 1e-9;

/// The table's statistics summed over all threads at one moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TtStatsSnapshot {
    pub mode: TtMode,
    /// Slots of the whole table, compact ones included.
    pub slots: u64,
    /// Of those, the compact slots that hold depth 2 alone (the GPU's split fast table); 0
    /// when every depth shares the table.
    pub compact_slots: u64,
    pub bytes: u64,
    /// The memory the user allowed: more than `bytes` where the search could not fill it.
    pub budget_bytes: u64,
    pub verifier_bits: u32,
    pub total: TtCounters,
    /// Only depths with a probe or a store, shallowest first.
    pub per_depth: Vec<DepthStats>,
}

/// The JSON report of a run: the snapshot's totals flattened beside `mode`, `slots`, `bytes`,
/// the caller's `fast_total` and the risk model for the run's node count.
#[derive(Clone, Debug, Serialize)]
pub struct TtReport<'a> {
    pub mode: TtMode,
    pub slots: u64,
    pub compact_slots: u64,
    pub bytes: u64,
    pub budget_bytes: u64,
    #[serde(flatten)]
    pub total: &'a TtCounters,
    /// certify: the total the fast table alone would have produced; `null` otherwise.
    #[serde(with = "serde_u128::option")]
    pub fast_total: Option<u128>,
    pub per_depth: &'a [DepthStats],
    pub risk: Risk,
}

impl TtStatsSnapshot {
    /// A snapshot from per-depth counter words (see [`summarize_depth_words`]) of a table of
    /// `shape`.
    pub fn from_depth_words(
        mode: TtMode,
        shape: &TableShape,
        bytes: u64,
        words: &[u64],
    ) -> TtStatsSnapshot {
        let (total, per_depth) = summarize_depth_words(words, shape);
        TtStatsSnapshot {
            mode,
            slots: shape.total_slots(),
            compact_slots: shape.compact_slots,
            bytes,
            budget_bytes: bytes,
            verifier_bits: shape.verifier_bits,
            total,
            per_depth,
        }
    }

    /// The risk of a `fast` run of `nodes` nodes whose chance of at least one false hit is
    /// above [`NEGLIGIBLE_P_ANY`]: its count may be wrong, whether or not a published value
    /// says so. `None` for the exact modes and for a negligible risk.
    pub fn count_at_risk(&self, nodes: u128) -> Option<Risk> {
        let risk = self.risk(nodes);
        (self.mode == TtMode::Fast && risk.p_false_hit > NEGLIGIBLE_P_ANY).then_some(risk)
    }

    /// The risk model for a run of `nodes` nodes, from this snapshot's wrong-occupied probes,
    /// each depth's at the verifier width that depth has.
    pub fn risk(&self, nodes: u128) -> Risk {
        Risk::by_depth(
            self.per_depth
                .iter()
                .map(|depth| (depth.counts.wrong_occupied_probes, depth.verifier_bits)),
            self.verifier_bits,
            nodes,
        )
    }

    pub fn report(&self, fast_total: Option<u128>, nodes: u128) -> TtReport<'_> {
        TtReport {
            mode: self.mode,
            slots: self.slots,
            compact_slots: self.compact_slots,
            bytes: self.bytes,
            budget_bytes: self.budget_bytes,
            total: &self.total,
            fast_total,
            per_depth: &self.per_depth,
            risk: self.risk(nodes),
        }
    }

    /// The report as a JSON object with the keys `mode, slots, compact_slots, bytes,
    /// budget_bytes, probes, hits, misses, stores, overwrites, occupancy,
    /// wrong_occupied_probes, false_hits, fast_total, payload_skips, per_depth, risk`.
    pub fn to_json(&self, fast_total: Option<u128>, nodes: u128) -> serde_json::Value {
        serde_json::to_value(self.report(fast_total, nodes)).unwrap_or_else(|err| {
            // Only maps with non-string keys fail to serialize, and the report has none.
            serde_json::Value::String(format!("unserializable TT report: {err}"))
        })
    }

    /// A few lines for the terminal: one per depth, the total, the fast total (certify) and the
    /// risk line.
    pub fn render_text(&self, fast_total: Option<u128>, nodes: u128) -> String {
        let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        let of_budget = match self.budget_bytes > self.bytes {
            true => format!(
                " of the {:.1} MiB allowed (as much as this search can fill)",
                mib(self.budget_bytes)
            ),
            false => String::new(),
        };
        let mut text = format!(
            "TT {}: {} slots, {:.1} MiB{of_budget}, verifier {} bits\n",
            self.mode,
            self.slots,
            mib(self.bytes),
            self.verifier_bits
        );
        if self.compact_slots != 0 {
            let compact_bits = self
                .per_depth
                .iter()
                .find(|depth| depth.depth == COMPACT_DEPTH)
                .map_or(compact_verifier_bits(self.verifier_bits), |depth| {
                    depth.verifier_bits
                });
            let _ = writeln!(
                text,
                "   of which {} compact slots hold depth {COMPACT_DEPTH} alone, verifier \
                 {compact_bits} bits",
                self.compact_slots
            );
        }
        let _ = writeln!(
            text,
            "{:>5} {:>14} {:>14} {:>14} {:>14} {:>14} {:>9} {:>14} {:>10} {:>8}",
            "depth",
            "probes",
            "hits",
            "misses",
            "stores",
            "overwrites",
            "occupancy",
            "wrong-occupied",
            "false-hits",
            "skips"
        );
        for stats in &self.per_depth {
            push_row(&mut text, &stats.depth.to_string(), &stats.counts);
        }
        push_row(&mut text, "total", &self.total);
        if let Some(fast_total) = fast_total {
            let _ = writeln!(
                text,
                "fast total: {fast_total} (what the fast table alone would have counted)"
            );
        }
        let risk = self.risk(nodes);
        // Compact slots compare fewer bits than the rest of the table: both widths are named.
        let narrowest = self
            .per_depth
            .iter()
            .map(|depth| depth.verifier_bits)
            .min()
            .unwrap_or(risk.verifier_bits);
        let widths = if narrowest < risk.verifier_bits {
            format!(
                "{narrowest} (depth {COMPACT_DEPTH}) and {}",
                risk.verifier_bits
            )
        } else {
            risk.verifier_bits.to_string()
        };
        let _ = write!(
            text,
            "risk at {widths} bits: {} wrong-occupied probes -> expected false hits {:.3e}, \
             P(any) {:.3e}; N = {} nodes -> N(N-1)/2^{} = {:.3e} colliding pairs",
            risk.wrong_occupied_probes,
            risk.expected_false_hits,
            risk.p_false_hit,
            risk.nodes,
            risk.verifier_bits + 1,
            risk.scale_pairs
        );
        if self.mode == TtMode::Verified {
            text.push_str(" (verified compares exact keys: these apply to a fast table)");
        }
        text.push('\n');
        text
    }
}

fn push_row(text: &mut String, label: &str, counts: &TtCounters) {
    let _ = writeln!(
        text,
        "{:>5} {:>14} {:>14} {:>14} {:>14} {:>14} {:>8.2}% {:>14} {:>10} {:>8}",
        label,
        counts.probes,
        counts.hits,
        counts.misses,
        counts.stores,
        counts.overwrites,
        counts.occupancy * 100.0,
        counts.wrong_occupied_probes,
        counts.false_hits,
        counts.payload_skips
    );
}
