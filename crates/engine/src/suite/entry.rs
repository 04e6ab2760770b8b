//! A position of a suite as its file gives it: where it is, what it is called, and the counts
//! the file publishes for it.

use super::error::Location;
use super::expected_stats::ExpectedStats;
use crate::chess::MoveStat;

/// One depth of a position, the node count the file gives for it (none: vkperft's count
/// stands in) and the move-type statistics it gives (an EPD line's `;D3.captures 34`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthCount {
    pub depth: u32,
    pub nodes: Option<u128>,
    pub stats: ExpectedStats,
}

/// A position of a suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// Its id in the file (an EPD `id` operation, a `.perft` `id` line, a table's id column),
    /// else `file:line`.
    pub id: String,
    /// The FEN as the file writes it (an EPD's four fields, or all six).
    pub fen: String,
    /// The line that gives its FEN.
    pub location: Location,
    /// Its depths in file order.
    pub depths: Vec<DepthCount>,
}

impl SuiteEntry {
    pub fn new(id: Option<String>, fen: String, location: Location) -> SuiteEntry {
        SuiteEntry {
            id: id.unwrap_or_else(|| location.to_string()),
            fen,
            location,
            depths: Vec::new(),
        }
    }

    /// Adds `depth`'s count; `Err` if the position already has one for it.
    pub fn add(&mut self, depth: u32, nodes: Option<u128>) -> Result<(), u32> {
        if self.depths.iter().any(|known| known.depth == depth) {
            return Err(depth);
        }
        self.depths.push(DepthCount {
            depth,
            nodes,
            stats: ExpectedStats::default(),
        });
        Ok(())
    }

    /// Adds column `stat`'s value at `depth`, the depth without a count if the position has
    /// none there yet (so add the counts first); `Err` if the column is given twice there.
    pub fn add_stat(&mut self, depth: u32, stat: MoveStat, value: u128) -> Result<(), MoveStat> {
        if self.count_at(depth).is_none() {
            self.add(depth, None).expect("the depth is new");
        }
        let known = self
            .depths
            .iter_mut()
            .find(|known| known.depth == depth)
            .expect("added above");
        known.stats.add(stat, value)
    }

    /// The count the file gives at `depth`, if it gives that depth.
    pub fn count_at(&self, depth: u32) -> Option<&DepthCount> {
        self.depths.iter().find(|known| known.depth == depth)
    }
}

/// What the numbers of a line read as: a depth from 1, and a node count.
pub(super) mod numbers {
    use super::super::error::LineProblem;

    pub fn depth(text: &str) -> Result<u32, LineProblem> {
        text.trim()
            .parse::<u32>()
            .ok()
            .filter(|&depth| depth > 0)
            .ok_or_else(|| LineProblem::BadDepth(text.trim().to_string()))
    }

    /// A count, with `_` and `,` allowed as digit separators (`119,060,324`).
    pub fn count(text: &str) -> Result<u128, LineProblem> {
        let digits: String = text
            .trim()
            .chars()
            .filter(|c| !matches!(c, '_' | ','))
            .collect();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(LineProblem::BadCount(text.trim().to_string()));
        }
        digits
            .parse()
            .map_err(|_| LineProblem::BadCount(text.trim().to_string()))
    }
}
