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
//!   ply-to-ply factor `g` per ply, so depth `d` meets about `items * g^(launch - d)`. Depth 2
//!   gets the share of the entries its count asks for, at 8 bytes each against 16 deeper.

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
            let shallow_bytes = estimate.at(2) * 8.0;
            let deep_bytes: f64 = (3..=estimate.launch).map(|d| estimate.at(d) * 16.0).sum();
            let share = shallow_bytes / (shallow_bytes + deep_bytes);
            (lines as f64 * share).round() as u64
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
    fn distinct_follows_the_counts_per_depth() {
        // Growth 10 over four depths below the items: 1000, 100, 10, 1 per item at depths 2-5;
        // 8,000 bytes at depth 2 against 1,776 deeper.
        let estimate = DistinctEstimate {
            launch: 5,
            items: 1.0,
            growth: 10.0,
        };
        assert_eq!(estimate.at(2), 1000.0);
        assert_eq!(
            compact_lines(TableSplit::Distinct, 97_760, Some(&estimate)),
            80_000
        );
        // Items two plies from the leaves: every probe is at depth 2.
        let shallow = DistinctEstimate {
            launch: 2,
            items: 400.0,
            growth: 20.0,
        };
        assert_eq!(compact_lines(TableSplit::Distinct, 64, Some(&shallow)), 63);
    }
}
