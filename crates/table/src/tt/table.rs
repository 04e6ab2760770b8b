//! The transposition table: one flat array of cache-line buckets per mode, shared by all
//! threads through `&self`, without any global lock.
//!
//! Keys: the remaining depth is part of every key. The caller passes
//! `hash = position_hash ^ zobrist.depth_key(depth)` and the same `depth`, which every entry
//! also stores. The bucket index comes from `hash.lo` (multiply-high reduction onto
//! `0..buckets`); the fast verifier uses `hash.hi ^ hash.lo`. A probe reads every entry of its
//! bucket and answers with the first that accepts its key; the wrong-occupied count is the
//! number of occupied entries of other keys it compared with (each a chance for a false hit).
//!
//! Replacement: depth-preferred, the shallowest entry of the bucket yielding, ties broken by
//! the key ([`super::replace`]); every entry holds its own depth, so the choice reads only the
//! bucket.
//!
//! Memory per bucket ("slot" = one entry; `slots = buckets * ways`):
//!
//! | mode       | entries | bucket bytes | per entry                                        |
//! |------------|---------|--------------|--------------------------------------------------|
//! | `fast`     | 4       | 64           | a 16-byte [`FastEntry`] (count and depth inside)  |
//! | `verified` | 2       | 128          | a 64-byte [`ExactEntry`]                          |
//! | `certify`  | 4       | 64 + 256     | a [`FastEntry`] and a 64-byte shadow [`ExactEntry`] |
//!
//! - `fast`: one [`FastBucket`], a cache line. The depth of each entry sits in its data word,
//!   so occupancy per depth is counted from what a store replaces (an atomic swap: exact under
//!   racing writers).
//! - `verified`: one [`VerifiedBucket`], two adjacent lines.
//! - `certify`: a [`FastBucket`] and, in a parallel array, four shadow [`ExactEntry`]s, one
//!   per fast entry, holding the exact key, depth and true count of that entry's writer. An
//!   entry and its shadow are written under the shadow's seqlock and read under it, so the two
//!   always belong to the same store; the victim is chosen from the fast bucket.
//!
//! A table for runs with `--stats` carries each entry's move-type statistics in a parallel
//! array ([`super::move_stats_slots`]: 80 bytes per entry, 160 in `certify`); it answers
//! [`TranspositionTable::probe_counts`] with them and stores them with
//! [`TranspositionTable::store_counts`].

use super::config::{TtConfig, TtError};
use super::exact::{
    tag_depth, tag_of, ExactContents, ExactEntry, Occupant, VerifiedBucket, VERIFIED_WAYS,
};
use super::fast::{fast_check, fast_payload, verifier_mask, FastBucket, FastContents, FAST_WAYS};
use super::memory::available_memory;
use super::mode::TtMode;
use super::move_stats_slots::{stats_of_words, stats_words, StatsSlot, StatsWords};
use super::prefetch::prefetch;
use super::replace::{tie_start, victim, Way};
use super::report::TtStatsSnapshot;
use super::shape::TableShape;
use super::stats::{StatsRegistry, ThreadStats, MAX_TABLE_DEPTH};
use super::zeroed_array::ZeroedArray;
use crate::chess::{Hash128, MoveStats, NybbleBoard, Position};
use crate::count::Counts;

/// The outcome of a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Miss,
    /// The entry is this position's: `exact` is its true count, `fast` what the fast table
    /// holds (the same value except in `certify`, where the caller stored both).
    Hit {
        exact: u128,
        fast: u128,
    },
    /// `certify` only: the fast table accepted another position's entry. `fast` is what the
    /// fast table would have answered; the caller searches the subtree itself.
    FalseHit {
        fast: u128,
    },
}

/// The outcome of a probe of a table with statistics ([`TranspositionTable::probe_counts`]).
/// A hit carries two sets of thirteen statistics, a false hit one: returned by value and
/// matched at once, a box would cost an allocation per hit.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountsProbe {
    Miss,
    /// The entry is this position's: its counts and statistics, exact and as the fast table
    /// holds them.
    Hit(Counts),
    /// `certify` only: the fast table accepted another position's entry, which would have
    /// answered `fast` and `fast_stats`.
    FalseHit {
        fast: u128,
        fast_stats: MoveStats,
    },
}

/// The statistics a probe read beside the entry it answered with: exact, and the fast count's.
type StatsRead = Option<(StatsWords, StatsWords)>;

/// One bucket of a table, as its probe reads it.
#[derive(Clone, Copy)]
pub enum BucketRef<'a> {
    Fast(&'a FastBucket),
    Verified(&'a VerifiedBucket),
    Certify {
        fast: &'a FastBucket,
        /// The shadow of each fast entry.
        shadows: &'a [ExactEntry],
    },
}

enum Storage {
    Fast {
        buckets: ZeroedArray<FastBucket>,
    },
    Verified {
        buckets: ZeroedArray<VerifiedBucket>,
    },
    Certify {
        fast: ZeroedArray<FastBucket>,
        /// `FAST_WAYS` shadows per bucket: entry `way` of bucket `b` at `b * FAST_WAYS + way`.
        shadow: ZeroedArray<ExactEntry>,
    },
}

impl Storage {
    fn allocate(mode: TtMode, buckets: usize) -> Result<Storage, TtError> {
        Ok(match mode {
            TtMode::Off => return Err(TtError::ModeOff),
            TtMode::Fast => Storage::Fast {
                buckets: ZeroedArray::new(buckets)?,
            },
            TtMode::Verified => Storage::Verified {
                buckets: ZeroedArray::new(buckets)?,
            },
            TtMode::Certify => Storage::Certify {
                fast: ZeroedArray::new(buckets)?,
                shadow: ZeroedArray::new(buckets * FAST_WAYS)?,
            },
        })
    }
}

/// The position a probe is for, which a probe may not need: `fast` reads the hash alone, and
/// `verified` and `certify` build the exact key only when a tag matches. A search can then
/// probe a child before it makes it.
pub trait ProbedPosition {
    fn position(&mut self) -> &Position;
}

impl ProbedPosition for &Position {
    fn position(&mut self) -> &Position {
        self
    }
}

impl<P: ProbedPosition> ProbedPosition for &mut P {
    fn position(&mut self) -> &Position {
        (**self).position()
    }
}

pub struct TranspositionTable {
    storage: Storage,
    /// Each entry's statistics, in tables built for `--stats`.
    stats_slots: Option<ZeroedArray<StatsSlot>>,
    mode: TtMode,
    buckets: usize,
    slots: usize,
    bytes: usize,
    /// The memory the user allowed, of which the table takes `bytes`.
    budget_bytes: usize,
    verifier_bits: u32,
    verifier_mask: u64,
    stats: StatsRegistry,
}

// Every depth the table keeps has its own Zobrist depth key: no two depths share a key.
const _: () = assert!((MAX_TABLE_DEPTH as usize) < crate::chess::zobrist::MAX_DEPTH_KEYS);

const _: () = {
    const fn shared_by_threads<T: Send + Sync>() {}
    shared_by_threads::<TranspositionTable>();
};

impl TranspositionTable {
    /// A table of as many buckets as `config.bytes` holds. `off` has no table and is an error:
    /// the caller creates none for it.
    pub fn new(config: &TtConfig) -> Result<TranspositionTable, TtError> {
        TranspositionTable::within(config, config)
    }

    /// Whether a table of `config` can be made: its sizes, and the memory available for it.
    pub fn check(config: &TtConfig) -> Result<(), TtError> {
        config.slots()?;
        check_available(config.table_bytes()?)
    }

    /// A table of `config`, a part of what `budget` allows (see [`TtConfig::at_most_slots`]);
    /// reports give both.
    pub fn within(config: &TtConfig, budget: &TtConfig) -> Result<TranspositionTable, TtError> {
        let mode = config.mode;
        let buckets = config.buckets()?;
        let slots = config.slots()?;
        let bytes = config.table_bytes()?;
        let budget_bytes = budget.table_bytes()?.max(bytes);
        check_available(bytes)?;
        let storage = Storage::allocate(mode, buckets)?;
        let stats_slots = match config.move_stats {
            true => Some(ZeroedArray::new(
                slots * if mode == TtMode::Certify { 2 } else { 1 },
            )?),
            false => None,
        };
        Ok(TranspositionTable {
            storage,
            stats_slots,
            mode,
            buckets,
            slots,
            bytes,
            budget_bytes,
            verifier_bits: config.verifier_bits,
            verifier_mask: verifier_mask(config.verifier_bits),
            stats: StatsRegistry::default(),
        })
    }

    pub fn mode(&self) -> TtMode {
        self.mode
    }

    /// Entries of the table, in all buckets.
    pub fn slots(&self) -> usize {
        self.slots
    }

    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Bytes actually allocated for the buckets (at most the configured budget).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The memory the user allowed the table, of which it takes [`Self::bytes`].
    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    pub fn verifier_bits(&self) -> u32 {
        self.verifier_bits
    }

    /// Whether the entries carry move-type statistics (a table for `--stats`).
    pub fn has_move_stats(&self) -> bool {
        self.stats_slots.is_some()
    }

    /// A fresh counter block for one worker thread; call once per thread and pass it to every
    /// probe and store that thread makes.
    pub fn thread_stats(&self) -> ThreadStats {
        self.stats.register()
    }

    /// The statistics summed over all threads so far; callable while workers run.
    pub fn snapshot(&self) -> TtStatsSnapshot {
        let shape = TableShape::shared(self.slots as u64, self.verifier_bits);
        let (total, per_depth) = self.stats.sum(&shape);
        TtStatsSnapshot {
            mode: self.mode,
            slots: self.slots as u64,
            compact_slots: 0,
            bytes: self.bytes as u64,
            budget_bytes: self.budget_bytes as u64,
            verifier_bits: self.verifier_bits,
            total,
            per_depth,
        }
    }

    #[inline]
    fn index(&self, hash: Hash128) -> usize {
        ((u128::from(hash.lo) * self.buckets as u128) >> 64) as usize
    }

    /// The bucket a probe of `hash` reads: to craft its entries, and to copy them to another
    /// implementation of the table (the GPU backend's probe self-test).
    pub fn bucket_of(&self, hash: Hash128) -> BucketRef<'_> {
        self.bucket(self.index(hash))
    }

    /// Bucket `index` (below [`Self::buckets`]).
    pub fn bucket(&self, index: usize) -> BucketRef<'_> {
        match &self.storage {
            Storage::Fast { buckets } => BucketRef::Fast(&buckets[index]),
            Storage::Verified { buckets } => BucketRef::Verified(&buckets[index]),
            Storage::Certify { fast, shadow } => BucketRef::Certify {
                fast: &fast[index],
                shadows: &shadow[index * FAST_WAYS..][..FAST_WAYS],
            },
        }
    }

    /// Asks the CPU to bring the bucket of `hash` into the cache, so that a probe of it soon
    /// after does not wait for memory. Only a hint: nothing is read or counted.
    #[inline]
    pub fn prefetch(&self, hash: Hash128) {
        let index = self.index(hash);
        match &self.storage {
            Storage::Fast { buckets } => prefetch(&buckets[index]),
            Storage::Verified { buckets } => {
                let bucket = &buckets[index];
                prefetch(&bucket.entries[0]);
                prefetch(&bucket.entries[1]);
            }
            Storage::Certify { fast, .. } => prefetch(&fast[index]),
        }
    }

    /// Looks up `pos` at `depth` remaining plies; `hash` already includes the depth key.
    /// Depths above [`MAX_TABLE_DEPTH`] are not kept: a miss, not counted.
    pub fn probe(
        &self,
        hash: Hash128,
        mut pos: impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> Probe {
        self.probe_reading(hash, &mut pos, depth, stats, false).0
    }

    /// [`Self::probe`] with the entry's statistics, for a table built for `--stats`; an entry
    /// whose statistics cannot be read with it (a `fast` slot torn between writers) is a miss.
    pub fn probe_counts(
        &self,
        hash: Hash128,
        mut pos: impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> CountsProbe {
        match self.probe_reading(hash, &mut pos, depth, stats, true) {
            (Probe::Hit { exact, fast }, Some((exact_stats, fast_stats))) => {
                CountsProbe::Hit(Counts {
                    nodes: exact,
                    fast_nodes: fast,
                    stats: stats_of_words(&exact_stats),
                    fast_stats: stats_of_words(&fast_stats),
                })
            }
            (Probe::FalseHit { fast }, Some((_, fast_stats))) => CountsProbe::FalseHit {
                fast,
                fast_stats: stats_of_words(&fast_stats),
            },
            _ => CountsProbe::Miss,
        }
    }

    fn probe_reading(
        &self,
        hash: Hash128,
        pos: &mut impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
        read_stats: bool,
    ) -> (Probe, StatsRead) {
        if depth > MAX_TABLE_DEPTH {
            return (Probe::Miss, None);
        }
        let index = self.index(hash);
        let slots = self.stats_slots.as_ref().filter(|_| read_stats);
        let (probe, read) = match &self.storage {
            Storage::Fast { buckets } => {
                let slots = slots.map(|slots| &slots[index * FAST_WAYS..][..FAST_WAYS]);
                self.probe_fast(&buckets[index], slots, hash, depth, stats)
            }
            Storage::Verified { buckets } => {
                let slots = slots.map(|slots| &slots[index * VERIFIED_WAYS..][..VERIFIED_WAYS]);
                probe_verified(&buckets[index], slots, hash, pos, depth, stats)
            }
            Storage::Certify { fast, shadow } => self.probe_certify(
                &fast[index],
                &shadow[index * FAST_WAYS..][..FAST_WAYS],
                slots.map(|slots| &slots[2 * index * FAST_WAYS..][..2 * FAST_WAYS]),
                hash,
                pos,
                depth,
                stats,
            ),
        };
        // A hit whose statistics were asked for and could not be read is searched again.
        let probe = match (probe, read_stats && read.is_none()) {
            (Probe::Hit { .. } | Probe::FalseHit { .. }, true) => Probe::Miss,
            (probe, _) => probe,
        };
        match probe {
            Probe::Hit { .. } => stats.hit(depth),
            Probe::Miss => stats.miss(depth),
            Probe::FalseHit { .. } => stats.false_hit(depth),
        }
        (probe, read)
    }

    fn probe_fast(
        &self,
        bucket: &FastBucket,
        slots: Option<&[StatsSlot]>,
        hash: Hash128,
        depth: u32,
        stats: &ThreadStats,
    ) -> (Probe, StatsRead) {
        let check = fast_check(hash);
        let entries = bucket.load();
        // Judged by the full 64 bits, whatever the verifier width.
        let wrong = entries
            .iter()
            .filter(|entry| !entry.is_empty() && entry.stored_check() != check)
            .count();
        stats.wrong_occupied_probes(depth, wrong as u64);
        match entries
            .iter()
            .position(|entry| entry.accepts(check, self.verifier_mask))
        {
            Some(way) => {
                let entry = entries[way];
                let count = u128::from(entry.count());
                // Sealed with the check of the entry's writer, which a narrowed verifier may
                // accept for another position.
                let read = slots
                    .and_then(|slots| slots[way].read_sealed(entry.stored_check(), entry.data))
                    .map(|words| (words, words));
                (
                    Probe::Hit {
                        exact: count,
                        fast: count,
                    },
                    read,
                )
            }
            None => (Probe::Miss, None),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn probe_certify(
        &self,
        fast: &FastBucket,
        shadows: &[ExactEntry],
        slots: Option<&[StatsSlot]>,
        hash: Hash128,
        pos: &mut impl ProbedPosition,
        depth: u32,
        stats: &ThreadStats,
    ) -> (Probe, StatsRead) {
        let check = fast_check(hash);
        let tag = tag_of(hash, depth);
        let mut key = None;
        let mut wrong = 0;
        let mut probe = Probe::Miss;
        let mut read = None;
        for (way, (entry, shadow)) in fast.entries.iter().zip(shadows).enumerate() {
            // A writer busy on this entry: it is passed over.
            let Some((shadow, (fast, beside))) = shadow.read(|| {
                let beside = slots.map(|slots| (slots[2 * way].read(), slots[2 * way + 1].read()));
                (entry.load(), beside)
            }) else {
                continue;
            };
            let occupant = shadow.occupant(tag, || {
                *key.get_or_insert_with(|| NybbleBoard::from_position(pos.position()))
            });
            if occupant == Occupant::Other {
                wrong += 1;
            }
            if probe == Probe::Miss && fast.accepts(check, self.verifier_mask) {
                let payload = u128::from(fast.count());
                probe = if occupant == Occupant::Same {
                    Probe::Hit {
                        exact: shadow.count,
                        fast: payload,
                    }
                } else {
                    Probe::FalseHit { fast: payload }
                };
                read = beside;
            }
        }
        stats.wrong_occupied_probes(depth, wrong);
        (probe, read)
    }

    /// Records the subtree counts of `pos` at `depth` remaining plies (`hash` includes the
    /// depth key) in the entry of its bucket that the replacement rule picks. `fast` keeps
    /// `fast`, `verified` keeps `exact`, `certify` keeps `fast` in the fast entry and `exact` in
    /// the shadow. A `fast` count above [`super::fast::MAX_FAST_COUNT`] does not fit the fast
    /// payload and is not stored (a payload skip). A store finding the entry's writer lock busy
    /// is dropped. Depths above [`MAX_TABLE_DEPTH`] are not kept. A table with statistics
    /// stores only through [`Self::store_counts`], which has them.
    pub fn store(
        &self,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        exact: u128,
        fast: u128,
        stats: &ThreadStats,
    ) {
        if self.stats_slots.is_none() {
            self.store_with(hash, pos, depth, exact, fast, None, stats);
        }
    }

    /// [`Self::store`] of `counts`, with their statistics where the table carries them.
    /// Statistics past 64 bits are not stored (a payload skip).
    pub fn store_counts(
        &self,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        counts: &Counts,
        stats: &ThreadStats,
    ) {
        let (exact, fast) = (counts.nodes, counts.fast_nodes);
        if self.stats_slots.is_none() {
            return self.store_with(hash, pos, depth, exact, fast, None, stats);
        }
        match (stats_words(&counts.stats), stats_words(&counts.fast_stats)) {
            (Some(exact_stats), Some(fast_stats)) => self.store_with(
                hash,
                pos,
                depth,
                exact,
                fast,
                Some((exact_stats, fast_stats)),
                stats,
            ),
            _ => stats.payload_skip(depth),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn store_with(
        &self,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        exact: u128,
        fast: u128,
        move_stats: StatsRead,
        stats: &ThreadStats,
    ) {
        if depth > MAX_TABLE_DEPTH {
            return;
        }
        let index = self.index(hash);
        let slot_of = |way: usize, ways: usize| {
            self.stats_slots
                .as_ref()
                .zip(move_stats)
                .map(|(slots, words)| (&slots[index * ways + way], words))
        };
        match &self.storage {
            Storage::Fast { buckets } => {
                let Some(payload) = fast_payload(fast) else {
                    stats.payload_skip(depth);
                    return;
                };
                let check = fast_check(hash);
                let bucket = &buckets[index];
                let entries = bucket.load();
                let way = victim(&fast_ways(&entries, check), tie_start(check));
                let written = FastContents::written(check, payload, depth);
                if let Some((slot, (_, fast_stats))) = slot_of(way, FAST_WAYS) {
                    slot.write_sealed(check, written.data, &fast_stats);
                }
                let replaced = bucket.entries[way].store(written);
                // The data word the swap returned is exact; the verification read before is
                // the same store's unless another writer raced this one.
                let previous = FastContents {
                    verification: entries[way].verification,
                    data: replaced,
                };
                stats.store(
                    depth,
                    previous.depth(),
                    !previous.is_empty() && previous.stored_check() != check,
                );
            }
            Storage::Verified { buckets } => {
                let bucket = &buckets[index];
                let tag = tag_of(hash, depth);
                let ways = bucket
                    .entries
                    .each_ref()
                    .map(|entry| exact_way(entry.peek_tag(), tag));
                let way = victim(&ways, tie_start(fast_check(hash)));
                let entry = &bucket.entries[way];
                let contents =
                    ExactContents::new(hash, depth, NybbleBoard::from_position(pos), exact);
                let Some(guard) = entry.try_lock() else {
                    return;
                };
                let previous = guard.contents();
                guard.write(&contents);
                if let Some((slot, (exact_stats, _))) = slot_of(way, VERIFIED_WAYS) {
                    slot.write(&exact_stats);
                }
                drop(guard);
                record_exact_store(&previous, &contents, depth, stats);
            }
            Storage::Certify {
                fast: fast_buckets,
                shadow,
            } => {
                let Some(payload) = fast_payload(fast) else {
                    stats.payload_skip(depth);
                    return;
                };
                let check = fast_check(hash);
                let bucket = &fast_buckets[index];
                let way = victim(&fast_ways(&bucket.load(), check), tie_start(check));
                let contents =
                    ExactContents::new(hash, depth, NybbleBoard::from_position(pos), exact);
                let Some(guard) = shadow[index * FAST_WAYS + way].try_lock() else {
                    return;
                };
                let previous = guard.contents();
                bucket.entries[way].store(FastContents::written(check, payload, depth));
                guard.write(&contents);
                if let Some((exact_slot, (exact_stats, fast_stats))) =
                    slot_of(2 * way, 2 * FAST_WAYS)
                {
                    exact_slot.write(&exact_stats);
                    if let Some((fast_slot, _)) = slot_of(2 * way + 1, 2 * FAST_WAYS) {
                        fast_slot.write(&fast_stats);
                    }
                }
                drop(guard);
                record_exact_store(&previous, &contents, depth, stats);
            }
        }
    }
}

/// What each entry of a fast bucket holds, for the replacement rule; the same key is judged
/// by the full 64-bit check.
#[inline]
fn fast_ways(entries: &[FastContents; FAST_WAYS], check: u64) -> [Way; FAST_WAYS] {
    entries.map(|entry| match entry.depth() {
        None => Way::Empty,
        Some(_) if entry.stored_check() == check => Way::Same,
        Some(depth) => Way::Other(depth),
    })
}

/// What an exact entry whose tag is `stored` holds, for the replacement rule, judged by the
/// tag alone (equal tags of two positions only make the store replace that entry).
#[inline]
fn exact_way(stored: u64, tag: u64) -> Way {
    match tag_depth(stored) {
        None => Way::Empty,
        Some(_) if stored == tag => Way::Same,
        Some(depth) => Way::Other(depth),
    }
}

fn probe_verified(
    bucket: &VerifiedBucket,
    slots: Option<&[StatsSlot]>,
    hash: Hash128,
    pos: &mut impl ProbedPosition,
    depth: u32,
    stats: &ThreadStats,
) -> (Probe, StatsRead) {
    let tag = tag_of(hash, depth);
    let mut key = None;
    let mut wrong = 0;
    let mut probe = Probe::Miss;
    let mut read = None;
    for (way, entry) in bucket.entries.iter().enumerate() {
        // A writer busy on this entry: it is passed over.
        let Some((contents, beside)) = entry.read(|| slots.map(|slots| slots[way].read())) else {
            continue;
        };
        match contents.occupant(tag, || {
            *key.get_or_insert_with(|| NybbleBoard::from_position(pos.position()))
        }) {
            Occupant::Same if probe == Probe::Miss => {
                probe = Probe::Hit {
                    exact: contents.count,
                    fast: contents.count,
                };
                read = beside.map(|words| (words, words));
            }
            Occupant::Same | Occupant::Empty => {}
            Occupant::Other => wrong += 1,
        }
    }
    stats.wrong_occupied_probes(depth, wrong);
    (probe, read)
}

fn record_exact_store(
    previous: &ExactContents,
    written: &ExactContents,
    depth: u32,
    stats: &ThreadStats,
) {
    let overwrite = previous.occupant(written.tag, || written.key) == Occupant::Other;
    stats.store(depth, previous.depth(), overwrite);
}

/// Refuses a table of `needed` bytes when the machine, or the cgroup the process runs in,
/// reports less memory available.
fn check_available(needed: usize) -> Result<(), TtError> {
    match available_memory() {
        Some((available, source)) if needed > available => Err(TtError::MoreThanAvailable {
            needed,
            available,
            limit: source,
        }),
        _ => Ok(()),
    }
}

pub mod testing;
#[cfg(test)]
mod tests;
