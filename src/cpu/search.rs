//! How one frontier task's subtree is counted.

use super::reference;
use crate::chess::{Hash128, Position};
use crate::count::Counts;

/// Counts subtrees for the parallel driver; one `Worker` per thread holds its private state.
pub trait SubtreeSearch: Sync {
    type Worker;
    fn worker(&self) -> Self::Worker;
    /// Counts of the `depth`-ply subtree below `pos`, whose Zobrist hash is `hash`.
    fn count(&self, worker: &mut Self::Worker, pos: &Position, hash: Hash128, depth: u32)
        -> Counts;
}

/// No transposition table: plain recursion with bulk counting.
pub struct PlainSearch;

impl SubtreeSearch for PlainSearch {
    type Worker = ();

    fn worker(&self) {}

    fn count(&self, _worker: &mut (), pos: &Position, _hash: Hash128, depth: u32) -> Counts {
        Counts::exact(reference::perft(pos, depth))
    }
}
