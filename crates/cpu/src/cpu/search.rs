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
use std::ops::AddAssign;
use std::sync::atomic::{AtomicBool, Ordering};

/// Subtrees of at most this many plies are counted without looking at the cancel flag: a few
/// milliseconds each, even for rich positions. Deeper nodes look at it before each child, so
/// that a cancelled run stops within milliseconds however deep its tasks are.
pub const UNINTERRUPTED_DEPTH: u32 = 4;

/// How many children's hashes [`TtSearch`] keeps ready, their table buckets prefetched: the
/// one searched and those after it.
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

/// Counts of a subtree of at most [`UNINTERRUPTED_DEPTH`] plies, with the statistics.
fn bulk_stats(pos: &Position, depth: u32) -> Counts {
    let (nodes, stats) = specialized::perft_stats(pos, depth);
    Counts::with_stats(nodes, stats)
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
        return Ok(bulk_stats(pos, depth));
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
        match self.table.has_move_stats() {
            true => self.search::<Counts>(stats, pos, hash, depth, cancel),
            false => self
                .search::<NodeTally>(stats, pos, hash, depth, cancel)
                .map(NodeTally::into_counts),
        }
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
    /// statistics makes the search count them, in [`Counts`]; without, the search adds up
    /// [`NodeTally`], a sixteenth of the size. `pos` is made only if the probe misses or
    /// needs it.
    fn search<T: Tally>(
        &self,
        stats: &ThreadStats,
        mut pos: impl ProbedPosition,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<T, Cancelled> {
        if depth < MIN_TT_DEPTH {
            return Ok(T::bulk(pos.position(), depth));
        }
        let key = hash ^ self.zobrist.depth_key(depth);
        // On a certify false hit the fast table's answer is kept as this node's fast counts,
        // while the exact counts are searched below.
        let false_hit_fast = match T::probe(self.table, key, &mut pos, depth, stats) {
            TallyProbe::Hit(counts) => return Ok(counts),
            TallyProbe::FalseHit(fast) => Some(fast),
            TallyProbe::Miss => None,
        };
        let pos = pos.position();
        let counts = if depth - 1 < MIN_TT_DEPTH {
            // Children are bulk-counted and never probed: no need for their hashes.
            T::bulk(pos, depth)
        } else {
            self.search_children::<T>(stats, pos, hash, depth, cancel)?
        };
        Ok(match false_hit_fast {
            // A fast table would not have searched here, so it would not have stored either.
            Some(fast) => counts.with_fast_of(fast),
            None => {
                counts.store(self.table, key, pos, depth, stats);
                counts
            }
        })
    }

    /// The sum of the children's searches. Each child's hash is computed
    /// `PREFETCH_AHEAD - 1` children before it is searched, and its bucket prefetched then, so
    /// that its probe finds the bucket in the cache instead of waiting for memory; the child
    /// itself is made only when its probe misses (a double push, whose en passant square
    /// decides its hash, at once).
    fn search_children<T: Tally>(
        &self,
        stats: &ThreadStats,
        pos: &Position,
        hash: Hash128,
        depth: u32,
        cancel: &AtomicBool,
    ) -> Result<T, Cancelled> {
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
        let mut counts = T::default();
        for (index, &m) in moves.iter().enumerate() {
            if depth > UNINTERRUPTED_DEPTH && cancel.load(Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let slot = &mut ahead[index % PREFETCH_AHEAD];
            // The child borrows a child made for its hash, rather than a copy of it.
            let child = LazyChild {
                parent: pos,
                m,
                premade: slot.0.as_ref(),
                made: None,
            };
            counts += self.search::<T>(stats, child, slot.1, depth - 1, cancel)?;
            if let Some(&next) = moves.get(index + PREFETCH_AHEAD) {
                *slot = hash_child(next);
            }
        }
        Ok(counts)
    }
}

/// What a table search adds up over a subtree: [`NodeTally`], or [`Counts`] with the
/// move-type statistics.
trait Tally: Copy + Default + AddAssign {
    /// The subtree of `pos`, `depth` plies deep, counted without the table.
    fn bulk(pos: &Position, depth: u32) -> Self;
    fn probe(
        table: &TranspositionTable,
        key: Hash128,
        pos: &mut impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> TallyProbe<Self>;
    /// This subtree's exact counts with the fast ones of a `certify` false hit.
    fn with_fast_of(self, false_hit: Self) -> Self;
    fn store(
        self,
        table: &TranspositionTable,
        key: Hash128,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    );
}

/// A probe's answer as a [`Tally`]: a false hit carries only the fast table's counts.
enum TallyProbe<T> {
    Hit(T),
    FalseHit(T),
    Miss,
}

/// The leaf counts alone, exact and as a fast table answers them.
#[derive(Clone, Copy, Default)]
struct NodeTally {
    nodes: u128,
    fast_nodes: u128,
}

impl NodeTally {
    fn into_counts(self) -> Counts {
        Counts {
            nodes: self.nodes,
            fast_nodes: self.fast_nodes,
            ..Counts::default()
        }
    }
}

impl AddAssign for NodeTally {
    #[inline]
    fn add_assign(&mut self, rhs: NodeTally) {
        self.nodes += rhs.nodes;
        self.fast_nodes += rhs.fast_nodes;
    }
}

impl Tally for NodeTally {
    #[inline]
    fn bulk(pos: &Position, depth: u32) -> NodeTally {
        let nodes = specialized::perft(pos, depth);
        NodeTally {
            nodes,
            fast_nodes: nodes,
        }
    }

    #[inline]
    fn probe(
        table: &TranspositionTable,
        key: Hash128,
        pos: &mut impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> TallyProbe<NodeTally> {
        match table.probe(key, pos, depth, stats) {
            Probe::Hit { exact, fast } => TallyProbe::Hit(NodeTally {
                nodes: exact,
                fast_nodes: fast,
            }),
            Probe::FalseHit { fast } => TallyProbe::FalseHit(NodeTally {
                nodes: 0,
                fast_nodes: fast,
            }),
            Probe::Miss => TallyProbe::Miss,
        }
    }

    #[inline]
    fn with_fast_of(self, false_hit: NodeTally) -> NodeTally {
        NodeTally {
            nodes: self.nodes,
            fast_nodes: false_hit.fast_nodes,
        }
    }

    #[inline]
    fn store(
        self,
        table: &TranspositionTable,
        key: Hash128,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    ) {
        table.store(key, pos, depth, self.nodes, self.fast_nodes, stats);
    }
}

impl Tally for Counts {
    #[inline]
    fn bulk(pos: &Position, depth: u32) -> Counts {
        bulk_stats(pos, depth)
    }

    #[inline]
    fn probe(
        table: &TranspositionTable,
        key: Hash128,
        pos: &mut impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> TallyProbe<Counts> {
        match table.probe_counts(key, pos, depth, stats) {
            CountsProbe::Hit(counts) => TallyProbe::Hit(counts),
            CountsProbe::FalseHit { fast, fast_stats } => TallyProbe::FalseHit(Counts {
                fast_nodes: fast,
                fast_stats,
                ..Counts::default()
            }),
            CountsProbe::Miss => TallyProbe::Miss,
        }
    }

    #[inline]
    fn with_fast_of(self, false_hit: Counts) -> Counts {
        Counts {
            fast_nodes: false_hit.fast_nodes,
            fast_stats: false_hit.fast_stats,
            ..self
        }
    }

    #[inline]
    fn store(
        self,
        table: &TranspositionTable,
        key: Hash128,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    ) {
        table.store_counts(key, pos, depth, &self, stats);
    }
}

/// A child position made on first use: a probe that hits needs only its hash.
struct LazyChild<'a> {
    parent: &'a Position,
    m: Move,
    /// The child, if it was made to compute its hash (a double push).
    premade: Option<&'a Position>,
    made: Option<Position>,
}

impl ProbedPosition for LazyChild<'_> {
    fn position(&mut self) -> &Position {
        match self.premade {
            Some(child) => child,
            None => self.made.get_or_insert_with(|| self.parent.play(self.m)),
        }
    }
}

#[cfg(test)]
mod tests;
