//! How one frontier task's subtree is counted: plainly, or through the transposition table.

use super::reference;
use crate::chess::movegen::legal_moves;
use crate::chess::{Hash128, Position, Zobrist};
use crate::count::Counts;
use crate::tt::{Probe, ThreadStats, TranspositionTable, TtStatsSnapshot, MIN_TT_DEPTH};

/// Counts subtrees for the parallel driver; one `Worker` per thread holds its private state.
pub trait SubtreeSearch: Sync {
    type Worker;
    fn worker(&self) -> Self::Worker;
    /// Counts of the `depth`-ply subtree below `pos`, whose Zobrist hash is `hash`.
    fn count(&self, worker: &mut Self::Worker, pos: &Position, hash: Hash128, depth: u32)
        -> Counts;
    /// The statistics of the table searched through, so far; none without one.
    fn tt_snapshot(&self) -> Option<TtStatsSnapshot> {
        None
    }
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

/// Recursion through a shared transposition table, in any of its modes.
pub struct TtSearch<'a> {
    pub table: &'a TranspositionTable,
    pub zobrist: &'a Zobrist,
}

impl SubtreeSearch for TtSearch<'_> {
    type Worker = ThreadStats;

    fn worker(&self) -> ThreadStats {
        self.table.thread_stats()
    }

    fn count(&self, stats: &mut ThreadStats, pos: &Position, hash: Hash128, depth: u32) -> Counts {
        self.search(stats, pos, hash, depth)
    }

    fn tt_snapshot(&self) -> Option<TtStatsSnapshot> {
        Some(self.table.snapshot())
    }
}

impl TtSearch<'_> {
    fn search(&self, stats: &ThreadStats, pos: &Position, hash: Hash128, depth: u32) -> Counts {
        if depth < MIN_TT_DEPTH {
            return Counts::exact(reference::perft(pos, depth));
        }
        let key = hash ^ self.zobrist.depth_key(depth);
        // On a certify false hit the fast table's answer is kept as this node's fast count,
        // while the exact count is searched below.
        let false_hit_fast = match self.table.probe(key, pos, depth, stats) {
            Probe::Hit { exact, fast } => {
                return Counts {
                    nodes: exact,
                    fast_nodes: fast,
                }
            }
            Probe::FalseHit { fast } => Some(fast),
            Probe::Miss => None,
        };
        let counts = if depth - 1 < MIN_TT_DEPTH {
            // Children are bulk-counted and never probed: no need for their hashes.
            Counts::exact(reference::perft(pos, depth))
        } else {
            let mut counts = Counts::default();
            for &m in legal_moves(pos).iter() {
                let child = pos.play(m);
                let child_hash = hash ^ self.zobrist.move_delta(pos, m, &child);
                counts += self.search(stats, &child, child_hash, depth - 1);
            }
            counts
        };
        match false_hit_fast {
            // A fast table would not have searched here, so it would not have stored either.
            Some(fast) => Counts {
                nodes: counts.nodes,
                fast_nodes: fast,
            },
            None => {
                self.table
                    .store(key, pos, depth, counts.nodes, counts.fast_nodes, stats);
                counts
            }
        }
    }
}
