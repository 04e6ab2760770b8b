//! Which depths of a suite run: one depth (`--depth D`), or every depth whose count is at most
//! a node budget (`--max-nodes N`), as suites publish depths far beyond a quick check.

use super::entry::{DepthCount, SuiteEntry};
use super::error::Location;
use super::expected_stats::ExpectedStats;
use super::read::SuiteFile;
use crate::backend::MAX_DEPTH;
use crate::chess::movegen::legal_moves;
use crate::chess::Position;

/// The node budget of a depth unless `--max-nodes` says otherwise: a suite of thousands of
/// positions then checks in minutes, not days.
pub const DEFAULT_MAX_NODES: u128 = 10_000_000;

/// How the depths to run are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthChoice {
    /// This depth of every position, with the file's count where it gives one.
    Only(u32),
    /// Every depth the file gives whose count is at most this many nodes; a depth without a
    /// count is estimated as the root's move count to the power of the depth.
    MaxNodes(u128),
}

/// One position at one depth, as the suite asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub id: String,
    /// The FEN as the file writes it.
    pub fen: String,
    pub location: Location,
    pub depth: u32,
    /// The file's count, if it gives one.
    pub expected: Option<u128>,
    /// The file's move-type statistics at this depth (compared when vkperft counts them).
    pub expected_stats: ExpectedStats,
}

/// The tasks of a run, in file order, and how many depths were left out.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub tasks: Vec<Task>,
    /// Depths over the budget, or beyond the deepest vkperft accepts.
    pub depths_left_out: usize,
}

pub fn select(files: &[SuiteFile], choice: DepthChoice) -> Selection {
    let mut selection = Selection::default();
    for entry in files.iter().flat_map(|file| &file.entries) {
        let depths: Vec<DepthCount> = match choice {
            DepthChoice::Only(depth) => {
                let left_out = entry.depths.iter().filter(|c| c.depth != depth).count();
                selection.depths_left_out += left_out;
                vec![entry.count_at(depth).cloned().unwrap_or(DepthCount {
                    depth,
                    nodes: None,
                    stats: ExpectedStats::default(),
                })]
            }
            DepthChoice::MaxNodes(budget) => {
                let kept: Vec<DepthCount> = entry
                    .depths
                    .iter()
                    .filter(|c| c.depth <= MAX_DEPTH)
                    .filter(|c| {
                        c.nodes
                            .or_else(|| estimate(entry, c.depth))
                            .is_some_and(|n| n <= budget)
                    })
                    .cloned()
                    .collect();
                selection.depths_left_out += entry.depths.len() - kept.len();
                kept
            }
        };
        selection.tasks.extend(depths.into_iter().map(|known| Task {
            id: entry.id.clone(),
            fen: entry.fen.clone(),
            location: entry.location.clone(),
            depth: known.depth,
            expected: known.nodes,
            expected_stats: known.stats,
        }));
    }
    selection
}

/// The root's move count to the power of `depth`; none for an illegal position.
fn estimate(entry: &SuiteEntry, depth: u32) -> Option<u128> {
    let position = Position::from_fen(&entry.fen).ok()?;
    let moves = legal_moves(&position).len() as u128;
    Some(moves.saturating_pow(depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::read::read_suite_text;
    use std::path::PathBuf;

    #[test]
    fn depths_over_the_budget_are_left_out() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8902\n\
                    4k3/8/8/8/8/8/8/4K3 w - - ;D1 5 ;D2 25 ;D31 1\n";
        let files = [read_suite_text(text, &PathBuf::from("s.epd"), false).expect("read")];
        let budget = select(&files, DepthChoice::MaxNodes(400));
        let asked: Vec<(u32, Option<u128>)> =
            budget.tasks.iter().map(|t| (t.depth, t.expected)).collect();
        assert_eq!(
            asked,
            [(1, Some(20)), (2, Some(400)), (1, Some(5)), (2, Some(25))]
        );
        assert_eq!(
            budget.depths_left_out, 2,
            "D3 over the budget, D31 beyond vkperft"
        );
        let only = select(&files, DepthChoice::Only(3));
        let asked: Vec<(u32, Option<u128>)> =
            only.tasks.iter().map(|t| (t.depth, t.expected)).collect();
        assert_eq!(asked, [(3, Some(8902)), (3, None)]);
    }

    #[test]
    fn a_depth_without_a_count_is_estimated() {
        let text = "4k3/8/8/8/8/8/8/4K3 w - -\t1\t5\n";
        let mut files = [read_suite_text(text, &PathBuf::from("s.tsv"), false).expect("read")];
        for depth in [2, 3] {
            files[0].entries[0].add(depth, None).expect("a new depth");
        }
        let tasks = select(&files, DepthChoice::MaxNodes(25)).tasks;
        assert_eq!(tasks.iter().map(|t| t.depth).collect::<Vec<_>>(), [1, 2]);
    }
}
