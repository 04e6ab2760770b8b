//! How the GPU's fast table shares its memory between remaining depths.
//!
//! The memory is a row of 64-byte lines. A deep search probes far more distinct positions two
//! plies from its leaves than anywhere else (about ten times the next depth up in chess), and
//! each needs only a small count: depth 2 can take the first lines as compact 32-byte buckets
//! of four 8-byte entries ([`super::compact`]: one memory sector per probe, twice the entries
//! per byte), the rest staying 64-byte buckets of four 16-byte entries for every deeper depth.
//!
//! - [`TableSplit::Shared`]: no compact lines; every depth competes for one table
//!   (depth-preferred replacement).
//! - [`TableSplit::Fixed`]: half the lines compact, whatever the run.
//! - [`TableSplit::Distinct`]: the lines follow the distinct positions the run will meet per
//!   remaining depth, estimated from the host's plan: its items are the distinct positions
//!   `launch` plies from the leaves, and the distinct positions grow by the plan's last
//!   ply-to-ply factor `g` per ply, so depth `d` meets about `items * g^(launch - d)`. Each
//!   depth asks for room for its distinct positions at 80% load ([`HEADROOM`]): 16 bytes an
//!   entry deeper than 2, 8 at depth 2. A hit deeper saves more work, so the deeper depths are
//!   served first: when both fit, the lines are shared in proportion to what each asks; when
//!   only the deeper depths fit, depth 2 gets the lines left over; when not even they fit, the
//!   table stays shared, where depth-preferred replacement keeps the deepest entries.
//!
//! Measured by the work counters (start position perft 8 on lavapipe, `--gpu-mem-mb 32`), a
//! split of the entries in proportion to the distinct counts alone, which gave depth 2 nine
//! lines in ten, made 14% more leaf count-ops than the shared table with 32 MiB (the deeper
//! depths' entries were evicted) and 0.4% fewer with 128 MiB.

use super::compact::COMPACT_WAYS;
use super::fast::FAST_WAYS;
use std::fmt;
use std::str::FromStr;

/// Bytes of one line: one fast bucket, or two compact buckets.
pub const LINE_BYTES: u64 = 64;
/// Compact buckets per line.
pub const COMPACT_BUCKETS_PER_LINE: u64 = 2;

const _: () = assert!(LINE_BYTES == (FAST_WAYS * 16) as u64);
const _: () = assert!(LINE_BYTES == COMPACT_BUCKETS_PER_LINE * (COMPACT_WAYS * 8) as u64);

/// Entries a depth's distinct positions ask room for, per position: a 4-way table at 80%
/// load keeps most entries, and room reserved beyond that is room the other part lacks.
pub const HEADROOM: f64 = 1.25;
const COMPACT_ENTRY_BYTES: f64 = 8.0;
const FAST_ENTRY_BYTES: f64 = 16.0;

/// How a fast table's lines are shared between depth 2 and the deeper depths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableSplit {
    /// One table for every depth.
    Shared,
    /// Half the lines to depth 2.
    Fixed,
    /// Lines by the distinct positions per depth the run's plan predicts.
    #[default]
    Distinct,
}

impl TableSplit {
    pub const ALL: [TableSplit; 3] = [TableSplit::Shared, TableSplit::Fixed, TableSplit::Distinct];

    pub fn name(self) -> &'static str {
        match self {
            TableSplit::Shared => "shared",
            TableSplit::Fixed => "fixed",
            TableSplit::Distinct => "distinct",
        }
    }
}

impl fmt::Display for TableSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown table split '{0}': expected shared, fixed or distinct")]
pub struct ParseTableSplitError(String);

impl FromStr for TableSplit {
    type Err = ParseTableSplitError;

    fn from_str(text: &str) -> Result<TableSplit, ParseTableSplitError> {
        TableSplit::ALL
            .into_iter()
            .find(|split| split.name() == text)
            .ok_or_else(|| ParseTableSplitError(text.to_string()))
    }
}

/// What the host's plan says of the distinct positions a run meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistinctEstimate {
    /// The items' remaining depth (the launch depth).
    pub launch: u32,
    /// The items: the distinct positions at that depth.
    pub items: f64,
    /// Distinct positions of one ply over those of the ply before, on the plan's last ply.
    pub growth: f64,
}

impl DistinctEstimate {
    /// Distinct positions expected at remaining depth `depth` (at most the launch depth).
    pub fn at(&self, depth: u32) -> f64 {
        let plies_below_items = self.launch.saturating_sub(depth);
        self.items * self.growth.max(1.0).powi(plies_below_items as i32)
    }
}

/// Lines of a table of `lines` lines that hold compact depth-2 buckets under `split`; the rest,
/// at least one line, are the deep table. `estimate` is needed by [`TableSplit::Distinct`]
/// only (without it, the lines stay shared).
pub fn compact_lines(split: TableSplit, lines: u64, estimate: Option<&DistinctEstimate>) -> u64 {
    let most = lines.saturating_sub(1);
    let wanted = match (split, estimate) {
        (TableSplit::Shared, _) | (TableSplit::Distinct, None) => 0,
        (TableSplit::Fixed, _) => lines / 2,
        (TableSplit::Distinct, Some(estimate)) => {
            let table_bytes = (lines * LINE_BYTES) as f64;
            let shallow_bytes = estimate.at(2) * COMPACT_ENTRY_BYTES * HEADROOM;
            let deep_bytes: f64 = (3..=estimate.launch)
                .map(|d| estimate.at(d) * FAST_ENTRY_BYTES * HEADROOM)
                .sum();
            let compact_bytes = if shallow_bytes + deep_bytes <= table_bytes {
                table_bytes * shallow_bytes / (shallow_bytes + deep_bytes)
            } else {
                (table_bytes - deep_bytes).max(0.0)
            };
            (compact_bytes / LINE_BYTES as f64).floor() as u64
        }
    };
    wanted.min(most)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for split in TableSplit::ALL {
            assert_eq!(split.name().parse::<TableSplit>(), Ok(split));
        }
        assert!("half".parse::<TableSplit>().is_err());
    }

    #[test]
    fn shared_and_fixed() {
        assert_eq!(compact_lines(TableSplit::Shared, 1000, None), 0);
        assert_eq!(compact_lines(TableSplit::Fixed, 1000, None), 500);
        // A deep line always stays.
        assert_eq!(compact_lines(TableSplit::Fixed, 1, None), 0);
        assert_eq!(compact_lines(TableSplit::Distinct, 1000, None), 0);
    }

    #[test]
    fn distinct_follows_the_counts_per_depth_deepest_first() {
        // Growth 10 over four depths below the items: 1000, 100, 10, 1 per item at depths 2-5;
        // at 80% load, depth 2 asks 10,000 bytes and the deeper depths 2,220.
        let estimate = DistinctEstimate {
            launch: 5,
            items: 1.0,
            growth: 10.0,
        };
        assert_eq!(estimate.at(2), 1000.0);
        let lines = |table_lines| compact_lines(TableSplit::Distinct, table_lines, Some(&estimate));
        // Room for both: in proportion.
        assert_eq!(lines(611), 500);
        assert_eq!(lines(6_110), 5_000);
        // Room for the deeper depths only: depth 2 gets the rest.
        assert_eq!(lines(135), 100);
        // Not even for them: shared.
        assert_eq!(lines(30), 0);
        // Items two plies from the leaves: every probe is at depth 2.
        let shallow = DistinctEstimate {
            launch: 2,
            items: 400.0,
            growth: 20.0,
        };
        assert_eq!(compact_lines(TableSplit::Distinct, 64, Some(&shallow)), 63);
    }
}
