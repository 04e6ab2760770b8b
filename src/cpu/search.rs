//! How one frontier task's subtree is counted: plainly, or through the transposition table.

use crate::backend::run_control::Cancelled;
use crate::chess::movegen::legal_moves;
use crate::chess::specialized;
use crate::chess::{Hash128, Move, Position, Zobrist};
use crate::count::Counts;
use crate::tt::{
    CountsProbe, Probe, ProbedPosition, ThreadStats, TranspositionTable, TtStatsSnapshot,
    MIN_TT_DEPTH,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// Subtrees of at most this many plies are counted without looking at the cancel flag: a few
/// milliseconds each, even for rich positions. Deeper nodes look at it before each child, so
/// that a cancelled run stops within milliseconds however deep its tasks are.
pub const UNINTERRUPTED_DEPTH: u32 = 4;

/// How many children ahead of the one searched [`TtSearch`] makes and prefetches the table
/// bucket of.
const PREFETCH_AHEAD: usize = 16;

/// Counts subtrees for the parallel driver; one `Worker` per thread holds its private state.
pub trait SubtreeSearch: Sync {
    type Worker;
    fn worker(&self) -> Self::Worker;
    /// Counts of the `depth`-ply subtree below `pos`, whose Zobrist hash is `hash`, or
    /// `Cancelled` soon after `cancel` is set.
    fn count_until(
        &self,
        worker: &mut Self::Worker,
        pos: &Position,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled>;
    /// Counts of the `depth`-ply subtree below `pos`, whose Zobrist hash is `hash`.
    fn count(
        &self,
        worker: &mut Self::Worker,
        pos: &Position,
        hash: Hash128,
        depth: u32,
    ) -> Counts {
        let never = AtomicBool::new(false);
        match self.count_until(worker, pos, hash, depth, &never) {
            Ok(counts) => counts,
            Err(Cancelled) => unreachable!("nothing sets the flag"),
        }
    }
    /// The statistics of the table searched through, so far; none without one.
    fn tt_snapshot(&self) -> Option<TtStatsSnapshot> {
        None
    }
    /// Whether the counts carry the move-type statistics of the lines' last moves.
    fn counts_move_stats(&self) -> bool {
        false
    }
}

/// Counts of a subtree of at most [`UNINTERRUPTED_DEPTH`] plies, with the statistics when
/// `move_stats` asks for them.
fn bulk_counts(pos: &Position, depth: u32, move_stats: bool) -> Counts {
    match move_stats {
        true => {
            let (nodes, stats) = specialized::perft_stats(pos, depth);
            Counts::with_stats(nodes, stats)
        }
        false => Counts::exact(specialized::perft(pos, depth)),
    }
}

/// Perft of `pos` to `depth` with bulk counting, or `Cancelled` soon after `cancel` is set.
fn perft_until(pos: &Position, depth: u32, cancel: &AtomicBool) -> Result<u128, Cancelled> {
    if depth <= UNINTERRUPTED_DEPTH {
        return Ok(specialized::perft(pos, depth));
    }
    let mut nodes = 0;
    for &m in legal_moves(pos).iter() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        nodes += perft_until(&pos.play(m), depth - 1, cancel)?;
    }
    Ok(nodes)
}

/// [`perft_until`] with the move-type statistics.
fn perft_stats_until(pos: &Position, depth: u32, cancel: &AtomicBool) -> Result<Counts, Cancelled> {
    if depth <= UNINTERRUPTED_DEPTH {
        return Ok(bulk_counts(pos, depth, true));
    }
    let mut counts = Counts::default();
    for &m in legal_moves(pos).iter() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        counts += perft_stats_until(&pos.play(m), depth - 1, cancel)?;
    }
    Ok(counts)
}

/// No transposition table: plain recursion with bulk counting.
pub struct PlainSearch;

impl SubtreeSearch for PlainSearch {
    type Worker = ();

    fn worker(&self) {}

    fn count_until(
        &self,
        _worker: &mut (),
        pos: &Position,
        _hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled> {
        perft_until(pos, depth, cancel).map(Counts::exact)
    }
}

/// No transposition table, counting the move-type statistics too (`--stats`).
pub struct PlainStatsSearch;

impl SubtreeSearch for PlainStatsSearch {
    type Worker = ();

    fn worker(&self) {}

    fn count_until(
        &self,
        _worker: &mut (),
        pos: &Position,
        _hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled> {
        perft_stats_until(pos, depth, cancel)
    }

    fn counts_move_stats(&self) -> bool {
        true
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

    fn count_until(
        &self,
        stats: &mut ThreadStats,
        pos: &Position,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled> {
        self.search(stats, pos, hash, depth, cancel)
    }

    fn tt_snapshot(&self) -> Option<TtStatsSnapshot> {
        Some(self.table.snapshot())
    }

    fn counts_move_stats(&self) -> bool {
        self.table.has_move_stats()
    }
}

impl TtSearch<'_> {
    /// A cancelled search stores nothing for the nodes it leaves unfinished. A table with
    /// statistics makes the search count them. `pos` is made only if the probe misses or
    /// needs it.
    fn search(
        &self,
        stats: &ThreadStats,
        mut pos: impl ProbedPosition,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled> {
        let move_stats = self.table.has_move_stats();
        if depth < MIN_TT_DEPTH {
            return Ok(bulk_counts(pos.position(), depth, move_stats));
        }
        let key = hash ^ self.zobrist.depth_key(depth);
        // On a certify false hit the fast table's answer is kept as this node's fast counts,
        // while the exact counts are searched below.
        let false_hit_fast = match move_stats {
            false => match self.table.probe(key, &mut pos, depth, stats) {
                Probe::Hit { exact, fast } => {
                    return Ok(Counts {
                        nodes: exact,
                        fast_nodes: fast,
                        ..Counts::default()
                    })
                }
                Probe::FalseHit { fast } => Some(Counts {
                    fast_nodes: fast,
                    ..Counts::default()
                }),
                Probe::Miss => None,
            },
            true => match self.table.probe_counts(key, &mut pos, depth, stats) {
                CountsProbe::Hit(counts) => return Ok(counts),
                CountsProbe::FalseHit { fast, fast_stats } => Some(Counts {
                    fast_nodes: fast,
                    fast_stats,
                    ..Counts::default()
                }),
                CountsProbe::Miss => None,
            },
        };
        let pos = pos.position();
        let counts = if depth - 1 < MIN_TT_DEPTH {
            // Children are bulk-counted and never probed: no need for their hashes.
            bulk_counts(pos, depth, move_stats)
        } else {
            self.search_children(stats, pos, hash, depth, cancel)?
        };
        Ok(match false_hit_fast {
            // A fast table would not have searched here, so it would not have stored either.
            Some(fast) => Counts {
                nodes: counts.nodes,
                fast_nodes: fast.fast_nodes,
                stats: counts.stats,
                fast_stats: fast.fast_stats,
            },
            None => {
                self.table.store_counts(key, pos, depth, &counts, stats);
                counts
            }
        })
    }

    /// The sum of the children's searches. Each child's hash is computed
    /// `PREFETCH_AHEAD` children before it is searched, and its bucket prefetched then, so
    /// that its probe finds the bucket in the cache instead of waiting for memory; the child
    /// itself is made only when its probe misses (a double push, whose en passant square
    /// decides its hash, at once).
    fn search_children(
        &self,
        stats: &ThreadStats,
        pos: &Position,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<Counts, Cancelled> {
        let moves = legal_moves(pos);
        let moves = moves.as_slice();
        let child_depth_key = self.zobrist.depth_key(depth - 1);
        let hash_child = |m: Move| {
            let (made, child_hash) = match self.zobrist.move_delta_before_play(pos, m) {
                Some(delta) => (None, hash ^ delta),
                None => {
                    let child = pos.play(m);
                    (Some(child), hash ^ self.zobrist.move_delta(pos, m, &child))
                }
            };
            self.table.prefetch(child_hash ^ child_depth_key);
            (made, child_hash)
        };
        let mut ahead = [(None, hash); PREFETCH_AHEAD];
        for (slot, &m) in ahead.iter_mut().zip(moves) {
            *slot = hash_child(m);
        }
        let mut counts = Counts::default();
        for (index, &m) in moves.iter().enumerate() {
            if depth > UNINTERRUPTED_DEPTH && cancel.load(Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let slot = &mut ahead[index % PREFETCH_AHEAD];
            let (made, child_hash) = *slot;
            if let Some(&next) = moves.get(index + PREFETCH_AHEAD) {
                *slot = hash_child(next);
            }
            let child = LazyChild {
                parent: pos,
                m,
                made,
            };
            counts += self.search(stats, child, child_hash, depth - 1, cancel)?;
        }
        Ok(counts)
    }
}

/// A child position made on first use: a probe that hits needs only its hash.
struct LazyChild<'a> {
    parent: &'a Position,
    m: Move,
    made: Option<Position>,
}

impl ProbedPosition for LazyChild<'_> {
    fn position(&mut self) -> &Position {
        self.made.get_or_insert_with(|| self.parent.play(self.m))
    }
}

#[cfg(test)]
mod tests;
