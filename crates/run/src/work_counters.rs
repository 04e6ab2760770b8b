//! Work counters: what a run did to count its leaves, in units that do not depend on the
//! machine (positions, probes, bytes, submissions), so that two backends, two schedules or two
//! table layouts can be compared without timing anything, and a real GPU's times turn them into
//! a cost model.
//!
//! Both backends count the leaf count-ops, the positions expanded and the table's probes and
//! hits per remaining depth, the items and the launch depth; the chunk counters
//! ([`ChunkWork`]) are the GPU's alone.

use crate::tt::TtStatsSnapshot;
use serde_json::{json, Map, Value};
use std::ops::AddAssign;

/// Counters by remaining depth: `values[d]` is depth `d`'s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByDepth {
    values: Vec<u64>,
}

impl ByDepth {
    pub fn get(&self, depth: u32) -> u64 {
        self.values.get(depth as usize).copied().unwrap_or(0)
    }

    pub fn add(&mut self, depth: u32, amount: u64) {
        if amount == 0 {
            return;
        }
        let index = depth as usize;
        if self.values.len() <= index {
            self.values.resize(index + 1, 0);
        }
        self.values[index] += amount;
    }

    pub fn total(&self) -> u64 {
        self.values.iter().sum()
    }

    /// `(depth, value)` for every depth with a nonzero value, shallowest first.
    pub fn nonzero(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (0u32..)
            .zip(self.values.iter().copied())
            .filter(|&(_, value)| value != 0)
    }

    /// `{"2": 1234, "3": 56}`: nonzero depths only.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.nonzero()
                .map(|(depth, value)| (depth.to_string(), json!(value)))
                .collect::<Map<String, Value>>(),
        )
    }
}

impl AddAssign<&ByDepth> for ByDepth {
    fn add_assign(&mut self, other: &ByDepth) {
        for (depth, value) in other.nonzero() {
            self.add(depth, value);
        }
    }
}

/// What the GPU's chunks cost: the buffers they wrote, the submissions and dispatches that ran
/// them, and the chunks that did not fit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkWork {
    /// Positions the stages wrote to the chunk buffers (a chunk's items are uploaded, not
    /// written), by remaining depth.
    pub positions_written: ByDepth,
    /// Positions the dedup stage found earlier in their level (searched once).
    pub duplicates: u64,
    /// Submissions of search stages.
    pub submissions: u64,
    /// Compute dispatches recorded.
    pub dispatches: u64,
    /// Times the host waited for the device (a submission's end, or a slot's).
    pub host_waits: u64,
    /// Bytes of chunk buffer the written positions occupy.
    pub bytes_written: u128,
    /// Of which the positions of the level the leaf stage counts (remaining depth 2).
    pub leaf_level_bytes: u128,
    /// Chunks redone smaller because a level did not fit.
    pub overflows: u64,
    /// Positions written by chunks that overflowed (their work was thrown away).
    pub wasted_positions: u64,
    /// What the run was given: positions a chunk's buffers hold, their device memory, and
    /// whether whole chunks were bounded by their predicted device time (`paced`, for a device
    /// a watchdog may reset) or only by the buffers (`whole`).
    pub chunk_positions: u64,
    pub chunk_bytes: u64,
    /// The segments the chunk arrays take, all arrays together (`gpu/chunk_arrays.rs`).
    pub chunk_segments: u64,
    pub paced: bool,
}

impl ChunkWork {
    /// `submission_policy` in `--json`, as `--submissions` names it.
    pub fn submission_policy(&self) -> &'static str {
        if self.paced {
            "paced"
        } else {
            "whole"
        }
    }

    /// Bytes per position of the leaf level; `None` when no leaf level was written.
    pub fn leaf_bytes_per_position(&self) -> Option<f64> {
        let positions = self.positions_written.get(2);
        (positions > 0).then(|| self.leaf_level_bytes as f64 / positions as f64)
    }
}

/// The keys of [`WorkCounters::to_json`]'s object, every one always present.
pub const JSON_KEYS: [&str; 20] = [
    "leaf_count_ops",
    "null_counted",
    "positions_written",
    "positions_expanded",
    "duplicates",
    "probes_by_depth",
    "hits_by_depth",
    "submissions",
    "dispatches",
    "host_waits",
    "bytes_written",
    "overflows",
    "wasted_positions",
    "items",
    "launch_depth",
    "leaf_bytes_per_position",
    "chunk_positions",
    "chunk_bytes",
    "chunk_segments",
    "submission_policy",
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkCounters {
    /// Positions whose legal moves were counted at the last ply rather than made: the children
    /// made at remaining depth 2, and positions counted at remaining depth 1. With no table,
    /// perft(N-1) less `null_counted`.
    pub leaf_count_ops: u128,
    /// Moves of positions at remaining depth 2 counted without being made: they leave the
    /// opponent's replies those of the position with the turn passed, whose replies are counted
    /// once per position (`chess::specialized::null_replies`; those counts are not leaf
    /// count-ops).
    pub null_counted: u128,
    /// Positions whose children were made, by remaining depth (2 and deeper): table misses and
    /// positions no table was probed for. The CPU counts them only with a table (without one,
    /// every node is expanded and the generator does not stop to count).
    pub positions_expanded: ByDepth,
    /// Table probes and hits by remaining depth (none without a table).
    pub probes_by_depth: ByDepth,
    pub hits_by_depth: ByDepth,
    /// Work items the host handed the search (after splits).
    pub items: u64,
    /// Plies below the items when the search took them over (the largest, if they differ).
    pub launch_depth: u32,
    /// The GPU's chunk counters; `None` on the CPU.
    pub chunks: Option<ChunkWork>,
}

impl WorkCounters {
    /// Takes the probes and hits per depth from a table's statistics.
    pub fn set_table_counts(&mut self, tt: Option<&TtStatsSnapshot>) {
        self.probes_by_depth = ByDepth::default();
        self.hits_by_depth = ByDepth::default();
        for depth in tt.iter().flat_map(|tt| &tt.per_depth) {
            self.probes_by_depth.add(depth.depth, depth.counts.probes);
            self.hits_by_depth.add(depth.depth, depth.counts.hits);
        }
    }

    /// The `work` object of `--json`: counts as numbers (the 128-bit ones as decimal strings);
    /// the chunk counters `null` on the CPU.
    pub fn to_json(&self) -> Value {
        let chunks = self.chunks.as_ref();
        let chunk = |field: fn(&ChunkWork) -> Value| chunks.map_or(Value::Null, field);
        json!({
            "leaf_count_ops": self.leaf_count_ops.to_string(),
            "null_counted": self.null_counted.to_string(),
            "positions_expanded": self.positions_expanded.to_json(),
            "probes_by_depth": self.probes_by_depth.to_json(),
            "hits_by_depth": self.hits_by_depth.to_json(),
            "items": self.items,
            "launch_depth": self.launch_depth,
            "positions_written": chunk(|c| c.positions_written.to_json()),
            "duplicates": chunk(|c| json!(c.duplicates)),
            "submissions": chunk(|c| json!(c.submissions)),
            "dispatches": chunk(|c| json!(c.dispatches)),
            "host_waits": chunk(|c| json!(c.host_waits)),
            "bytes_written": chunk(|c| json!(c.bytes_written.to_string())),
            "overflows": chunk(|c| json!(c.overflows)),
            "wasted_positions": chunk(|c| json!(c.wasted_positions)),
            "leaf_bytes_per_position": chunk(|c| json!(c.leaf_bytes_per_position())),
            "chunk_positions": chunk(|c| json!(c.chunk_positions)),
            "chunk_bytes": chunk(|c| json!(c.chunk_bytes)),
            "chunk_segments": chunk(|c| json!(c.chunk_segments)),
            "submission_policy": chunk(|c| json!(c.submission_policy())),
        })
    }

    /// A few lines for people: leaf count-ops and expanded positions, and for the GPU what the
    /// chunks wrote and how they ran.
    pub fn render_text(&self) -> String {
        let mut text = format!(
            "Work: {} leaf count-ops, {} moves counted without being made, {} positions expanded, {} item(s) of {} plies\n",
            self.leaf_count_ops,
            self.null_counted,
            self.positions_expanded.total(),
            self.items,
            self.launch_depth
        );
        if let Some(chunks) = &self.chunks {
            let per_leaf = chunks
                .leaf_bytes_per_position()
                .map_or_else(String::new, |bytes| {
                    format!(" ({bytes:.1} B per leaf-level position)")
                });
            text += &format!(
                "GPU chunks: {} positions in {:.1} MiB ({} segments), {} submissions\n",
                chunks.chunk_positions,
                chunks.chunk_bytes as f64 / f64::from(1 << 20),
                chunks.chunk_segments,
                chunks.submission_policy(),
            );
            text += &format!(
                "GPU: {} positions written{per_leaf}, {} duplicates, {} submissions, {} dispatches, {} host waits, {} overflows ({} positions wasted)\n",
                chunks.positions_written.total(),
                chunks.duplicates,
                chunks.submissions,
                chunks.dispatches,
                chunks.host_waits,
                chunks.overflows,
                chunks.wasted_positions,
            );
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_depth_keeps_nonzero_depths_in_order() {
        let mut counts = ByDepth::default();
        counts.add(3, 5);
        counts.add(2, 0);
        counts.add(5, 1);
        counts.add(3, 2);
        assert_eq!(counts.get(3), 7);
        assert_eq!(counts.get(9), 0);
        assert_eq!(counts.total(), 8);
        assert_eq!(counts.to_json(), json!({"3": 7, "5": 1}));
        let mut sum = ByDepth::default();
        sum += &counts;
        sum += &counts;
        assert_eq!(sum.get(5), 2);
    }

    #[test]
    fn json_has_every_key_and_null_chunk_counters_on_the_cpu() {
        let mut work = WorkCounters {
            leaf_count_ops: u128::from(u64::MAX) + 1,
            items: 20,
            launch_depth: 4,
            ..WorkCounters::default()
        };
        let cpu = work.to_json();
        assert_eq!(cpu["leaf_count_ops"], "18446744073709551616");
        assert_eq!(cpu["items"], 20);
        assert!(cpu["submissions"].is_null());
        work.chunks = Some(ChunkWork {
            leaf_level_bytes: 160,
            chunk_positions: 1 << 20,
            chunk_bytes: 32 << 20,
            chunk_segments: 6,
            paced: true,
            ..ChunkWork::default()
        });
        work.chunks.as_mut().unwrap().positions_written.add(2, 10);
        let gpu = work.to_json();
        assert_eq!(gpu["leaf_bytes_per_position"], 16.0);
        assert_eq!(gpu["chunk_positions"], 1 << 20);
        assert_eq!(gpu["chunk_segments"], 6);
        assert_eq!(gpu["submission_policy"], "paced");
        assert_eq!(gpu["positions_written"], json!({"2": 10}));
        for key in JSON_KEYS {
            assert!(gpu.get(key).is_some(), "{key}");
        }
        assert_eq!(
            gpu.as_object().map(|object| object.len()),
            Some(JSON_KEYS.len())
        );
        let text = work.render_text();
        assert!(text.contains("16.0 B per leaf-level position"), "{text}");
        assert!(
            text.contains(
                "GPU chunks: 1048576 positions in 32.0 MiB (6 segments), paced submissions"
            ),
            "{text}"
        );
    }
}
