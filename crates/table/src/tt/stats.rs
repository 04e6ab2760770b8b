//! Table statistics, per remaining depth and in total, counted without contention.
//!
//! Each thread owns a [`ThreadStats`]: an `Arc`'d, cache-line-aligned block of counters that
//! only that thread writes (relaxed load + store, no read-modify-write), so threads never
//! fight over a shared line. The table's [`StatsRegistry`] keeps every block, and
//! [`StatsRegistry::sum`] adds them up at any time, for live progress while workers run.
//!
//! Conventions:
//! - `probes = hits + misses`, always: probes are not counted separately.
//! - A certify false hit is also a miss (it does not give the count); `false_hits` counts it
//!   again on its own.
//! - `stores` counts entries written; a store skipped because the slot's writer lock was busy
//!   is not counted, one skipped because the count does not fit the fast payload is a
//!   `payload_skip`. `overwrites <= stores`: an overwrite is a store into a slot that held
//!   another position's (or depth's) entry.
//! - Used slots are counted per depth as fills minus vacates, so the sum is exact once the
//!   workers are done; a live sum may be momentarily off and is clamped to `0..=slots`.

use super::shader_shared::{
    COUNTERS_PER_DEPTH, COUNTER_FALSE_HITS, COUNTER_HITS, COUNTER_MISSES, COUNTER_OVERWRITES,
    COUNTER_PAYLOAD_SKIPS, COUNTER_STORES, COUNTER_USED_DELTA, COUNTER_WRONG_OCCUPIED,
};
use super::shape::TableShape;
use serde::Serialize;
use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};

pub use super::shader_shared::MAX_TABLE_DEPTH;
const DEPTHS: usize = MAX_TABLE_DEPTH as usize + 1;

/// One depth's counters: exactly one cache line.
#[repr(C, align(64))]
#[derive(Debug, Default)]
struct DepthCounters {
    hits: AtomicU64,
    misses: AtomicU64,
    stores: AtomicU64,
    overwrites: AtomicU64,
    /// Slots filled minus slots vacated at this depth, as a wrapping two's-complement value:
    /// one thread may vacate what another filled.
    used_delta: AtomicU64,
    wrong_occupied_probes: AtomicU64,
    false_hits: AtomicU64,
    payload_skips: AtomicU64,
}

const _: () = assert!(size_of::<DepthCounters>() == 64);
const _: () = assert!(size_of::<DepthCounters>() == DEPTH_COUNTER_WORDS * 8);

#[derive(Debug)]
struct StatsBlock {
    depths: [DepthCounters; DEPTHS],
}

/// The counters one thread writes. Not `Sync`, so it cannot be shared between threads (its
/// load + store increments would lose counts); each worker gets its own from
/// `TranspositionTable::thread_stats`.
#[derive(Debug)]
pub struct ThreadStats {
    block: Arc<StatsBlock>,
    _single_writer: PhantomData<Cell<()>>,
}

#[inline]
fn add(counter: &AtomicU64, amount: u64) {
    counter.store(counter.load(Relaxed).wrapping_add(amount), Relaxed);
}

impl ThreadStats {
    #[inline]
    fn at(&self, depth: u32) -> &DepthCounters {
        &self.block.depths[depth as usize]
    }

    #[inline]
    pub(crate) fn hit(&self, depth: u32) {
        add(&self.at(depth).hits, 1);
    }

    #[inline]
    pub(crate) fn miss(&self, depth: u32) {
        add(&self.at(depth).misses, 1);
    }

    #[inline]
    pub(crate) fn false_hit(&self, depth: u32) {
        let counters = self.at(depth);
        add(&counters.misses, 1);
        add(&counters.false_hits, 1);
    }

    /// A probe at `depth` compared with `entries` occupied entries of other keys.
    #[inline]
    pub(crate) fn wrong_occupied_probes(&self, depth: u32, entries: u64) {
        if entries != 0 {
            add(&self.at(depth).wrong_occupied_probes, entries);
        }
    }

    #[inline]
    pub(crate) fn payload_skip(&self, depth: u32) {
        add(&self.at(depth).payload_skips, 1);
    }

    /// A store at `depth` into a slot whose previous entry had depth `previous` (`None`:
    /// empty); `overwrite` when that entry was another position's.
    #[inline]
    pub(crate) fn store(&self, depth: u32, previous: Option<u32>, overwrite: bool) {
        let counters = self.at(depth);
        add(&counters.stores, 1);
        if overwrite {
            add(&counters.overwrites, 1);
        }
        if let Some(previous) = previous {
            add(&self.at(previous).used_delta, u64::MAX);
        }
        add(&counters.used_delta, 1);
    }
}

/// Every thread's counter block, for summing.
#[derive(Debug, Default)]
pub struct StatsRegistry {
    blocks: Mutex<Vec<Arc<StatsBlock>>>,
}

/// Raw sums of one depth's counters over all threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RawCounts {
    hits: u64,
    misses: u64,
    stores: u64,
    overwrites: u64,
    used_delta: u64,
    wrong_occupied_probes: u64,
    false_hits: u64,
    payload_skips: u64,
}

impl RawCounts {
    fn add(&mut self, counters: &DepthCounters) {
        self.hits = self.hits.wrapping_add(counters.hits.load(Relaxed));
        self.misses = self.misses.wrapping_add(counters.misses.load(Relaxed));
        self.stores = self.stores.wrapping_add(counters.stores.load(Relaxed));
        self.overwrites = self
            .overwrites
            .wrapping_add(counters.overwrites.load(Relaxed));
        self.used_delta = self
            .used_delta
            .wrapping_add(counters.used_delta.load(Relaxed));
        self.wrong_occupied_probes = self
            .wrong_occupied_probes
            .wrapping_add(counters.wrong_occupied_probes.load(Relaxed));
        self.false_hits = self
            .false_hits
            .wrapping_add(counters.false_hits.load(Relaxed));
        self.payload_skips = self
            .payload_skips
            .wrapping_add(counters.payload_skips.load(Relaxed));
    }

    fn counts(&self, slots: u64) -> TtCounters {
        let used = (self.used_delta as i64).clamp(0, slots as i64) as u64;
        TtCounters::new(
            TtCounters {
                probes: self.hits.wrapping_add(self.misses),
                hits: self.hits,
                misses: self.misses,
                stores: self.stores,
                overwrites: self.overwrites,
                used_slots: 0,
                occupancy: 0.0,
                wrong_occupied_probes: self.wrong_occupied_probes,
                false_hits: self.false_hits,
                payload_skips: self.payload_skips,
            },
            used,
            slots,
        )
    }
}

impl StatsRegistry {
    /// A counter block for one thread: one whose thread has dropped it if there is one (its
    /// counts stay in the sums, and a table kept over many jobs does not collect a block per
    /// thread per job, each summed by every report), else a new one.
    pub fn register(&self) -> ThreadStats {
        let mut blocks = self.blocks.lock().unwrap_or_else(PoisonError::into_inner);
        // `get_mut` succeeds only for a block no thread holds, and synchronizes with the drop
        // of the last holder, so the new thread continues from that thread's final counts.
        let free = blocks
            .iter_mut()
            .find_map(|block| Arc::get_mut(block).is_some().then(|| Arc::clone(block)));
        let block = free.unwrap_or_else(|| {
            let block = Arc::new(StatsBlock {
                depths: std::array::from_fn(|_| DepthCounters::default()),
            });
            blocks.push(Arc::clone(&block));
            block
        });
        ThreadStats {
            block,
            _single_writer: PhantomData,
        }
    }

    /// The totals and the per-depth counts (only depths with a probe or a store) over all
    /// threads, for a table of `shape`.
    pub fn sum(&self, shape: &TableShape) -> (TtCounters, Vec<DepthStats>) {
        let mut raw = [RawCounts::default(); DEPTHS];
        for block in self
            .blocks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
        {
            for (sum, counters) in raw.iter_mut().zip(&block.depths) {
                sum.add(counters);
            }
        }
        summarize(&raw, shape)
    }
}

/// Counters of one depth as 64-bit words in [`DepthCounters`] order: the layout of the GPU's
/// statistics buffer (`shader_shared.rs`).
pub const DEPTH_COUNTER_WORDS: usize = COUNTERS_PER_DEPTH as usize;

/// Totals and per-depth counts from per-depth counter words, `DEPTH_COUNTER_WORDS` per depth
/// from depth 0 up, as the GPU counts them.
pub fn summarize_depth_words(words: &[u64], shape: &TableShape) -> (TtCounters, Vec<DepthStats>) {
    let mut raw = [RawCounts::default(); DEPTHS];
    for (sum, depth) in raw.iter_mut().zip(words.chunks_exact(DEPTH_COUNTER_WORDS)) {
        let word = |index: u32| depth[index as usize];
        *sum = RawCounts {
            hits: word(COUNTER_HITS),
            misses: word(COUNTER_MISSES),
            stores: word(COUNTER_STORES),
            overwrites: word(COUNTER_OVERWRITES),
            used_delta: word(COUNTER_USED_DELTA),
            wrong_occupied_probes: word(COUNTER_WRONG_OCCUPIED),
            false_hits: word(COUNTER_FALSE_HITS),
            payload_skips: word(COUNTER_PAYLOAD_SKIPS),
        };
    }
    summarize(&raw, shape)
}

/// Occupancy is a share of the whole table's slots at every depth, so that the depths' shares
/// add up to the total's.
fn summarize(raw: &[RawCounts; DEPTHS], shape: &TableShape) -> (TtCounters, Vec<DepthStats>) {
    let slots = shape.total_slots();
    let per_depth: Vec<DepthStats> = (0..=MAX_TABLE_DEPTH)
        .zip(raw)
        .map(|(depth, raw)| DepthStats {
            depth,
            verifier_bits: shape.verifier_bits_of(depth),
            counts: raw.counts(slots),
        })
        .filter(|stats| stats.counts.probes > 0 || stats.counts.stores > 0)
        .collect();
    let mut total = per_depth
        .iter()
        .fold(TtCounters::default(), |total, stats| {
            total.plus(&stats.counts)
        });
    total = TtCounters::new(total, total.used_slots.min(slots), slots);
    (total, per_depth)
}

/// Summed counters of one depth or of all depths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TtCounters {
    pub probes: u64,
    pub hits: u64,
    /// Includes the false hits.
    pub misses: u64,
    pub stores: u64,
    pub overwrites: u64,
    /// Slots holding an entry (of this depth).
    #[serde(skip)]
    pub used_slots: u64,
    /// `used_slots / slots`, in `[0, 1]`.
    pub occupancy: f64,
    pub wrong_occupied_probes: u64,
    pub false_hits: u64,
    pub payload_skips: u64,
}

impl TtCounters {
    fn new(counts: TtCounters, used_slots: u64, slots: u64) -> TtCounters {
        let occupancy = if slots == 0 {
            0.0
        } else {
            used_slots as f64 / slots as f64
        };
        TtCounters {
            used_slots,
            occupancy,
            ..counts
        }
    }

    fn plus(&self, other: &TtCounters) -> TtCounters {
        TtCounters {
            probes: self.probes.wrapping_add(other.probes),
            hits: self.hits.wrapping_add(other.hits),
            misses: self.misses.wrapping_add(other.misses),
            stores: self.stores.wrapping_add(other.stores),
            overwrites: self.overwrites.wrapping_add(other.overwrites),
            used_slots: self.used_slots.saturating_add(other.used_slots),
            occupancy: 0.0,
            wrong_occupied_probes: self
                .wrong_occupied_probes
                .wrapping_add(other.wrong_occupied_probes),
            false_hits: self.false_hits.wrapping_add(other.false_hits),
            payload_skips: self.payload_skips.wrapping_add(other.payload_skips),
        }
    }
}

/// One remaining depth's counters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DepthStats {
    pub depth: u32,
    /// The verifier bits a probe at this depth compares (fewer than the table's in compact
    /// slots).
    pub verifier_bits: u32,
    #[serde(flatten)]
    pub counts: TtCounters,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block whose thread is gone serves the next thread, its counts kept.
    #[test]
    fn blocks_of_finished_threads_are_reused() {
        let registry = StatsRegistry::default();
        for round in 1..=3u64 {
            let (first, second) = (registry.register(), registry.register());
            first.hit(2);
            second.miss(3);
            drop((first, second));
            let (total, _) = registry.sum(&TableShape::shared(10, 64));
            assert_eq!((total.hits, total.misses), (round, round));
            assert_eq!(registry.blocks.lock().map(|b| b.len()).ok(), Some(2));
        }
    }

    #[test]
    fn threads_sum_and_slots_move_between_depths() {
        let registry = StatsRegistry::default();
        let first = registry.register();
        let second = registry.register();
        first.hit(4);
        first.miss(4);
        second.false_hit(4);
        first.store(4, None, false);
        // The second thread replaces the first thread's depth-4 entry with a depth-3 one.
        second.store(3, Some(4), true);
        second.store(5, None, false);

        let (total, per_depth) = registry.sum(&TableShape::shared(10, 64));
        assert_eq!(total.probes, 3);
        assert_eq!(total.hits + total.misses, total.probes);
        assert_eq!(total.false_hits, 1);
        assert_eq!(total.stores, 3);
        assert_eq!(total.overwrites, 1);
        assert_eq!(total.used_slots, 2);
        assert!((total.occupancy - 0.2).abs() < 1e-12);
        let used: Vec<(u32, u64)> = per_depth
            .iter()
            .map(|stats| (stats.depth, stats.counts.used_slots))
            .collect();
        assert_eq!(used, [(3, 1), (4, 0), (5, 1)]);
    }
}
