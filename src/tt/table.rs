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

use super::config::{TtConfig, TtError};
use super::exact::{tag_depth, tag_of, ExactContents, ExactEntry, Occupant, VerifiedBucket};
use super::fast::{fast_check, fast_payload, verifier_mask, FastBucket, FastContents, FAST_WAYS};
use super::memory::check_available;
use super::mode::TtMode;
use super::prefetch::prefetch;
use super::replace::{tie_start, victim, Way};
use super::report::TtStatsSnapshot;
use super::shape::TableShape;
use super::stats::{StatsRegistry, ThreadStats, MAX_TABLE_DEPTH};
use super::zeroed_array::ZeroedArray;
use crate::chess::{Hash128, NybbleBoard, Position};

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

pub struct TranspositionTable {
    storage: Storage,
    mode: TtMode,
    buckets: usize,
    slots: usize,
    bytes: usize,
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
        let mode = config.mode;
        let buckets = config.buckets()?;
        let slots = config.slots()?;
        let bytes = config.table_bytes()?;
        check_available(bytes)?;
        let storage = Storage::allocate(mode, buckets)?;
        Ok(TranspositionTable {
            storage,
            mode,
            buckets,
            slots,
            bytes,
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

    pub fn verifier_bits(&self) -> u32 {
        self.verifier_bits
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
    pub fn probe(&self, hash: Hash128, pos: &Position, depth: u32, stats: &ThreadStats) -> Probe {
        if depth > MAX_TABLE_DEPTH {
            return Probe::Miss;
        }
        let index = self.index(hash);
        let probe = match &self.storage {
            Storage::Fast { buckets } => self.probe_fast(&buckets[index], hash, depth, stats),
            Storage::Verified { buckets } => {
                probe_verified(&buckets[index], hash, pos, depth, stats)
            }
            Storage::Certify { fast, shadow } => self.probe_certify(
                &fast[index],
                &shadow[index * FAST_WAYS..][..FAST_WAYS],
                hash,
                pos,
                depth,
                stats,
            ),
        };
        match probe {
            Probe::Hit { .. } => stats.hit(depth),
            Probe::Miss => stats.miss(depth),
            Probe::FalseHit { .. } => stats.false_hit(depth),
        }
        probe
    }

    fn probe_fast(
        &self,
        bucket: &FastBucket,
        hash: Hash128,
        depth: u32,
        stats: &ThreadStats,
    ) -> Probe {
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
            .find(|entry| entry.accepts(check, self.verifier_mask))
        {
            Some(entry) => {
                let count = u128::from(entry.count());
                Probe::Hit {
                    exact: count,
                    fast: count,
                }
            }
            None => Probe::Miss,
        }
    }

    fn probe_certify(
        &self,
        fast: &FastBucket,
        shadows: &[ExactEntry],
        hash: Hash128,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    ) -> Probe {
        let check = fast_check(hash);
        let tag = tag_of(hash, depth);
        let mut key = None;
        let mut wrong = 0;
        let mut probe = Probe::Miss;
        for (entry, shadow) in fast.entries.iter().zip(shadows) {
            // A writer busy on this entry: it is passed over.
            let Some((shadow, fast)) = shadow.read(|| entry.load()) else {
                continue;
            };
            let occupant = shadow.occupant(tag, || {
                *key.get_or_insert_with(|| NybbleBoard::from_position(pos))
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
            }
        }
        stats.wrong_occupied_probes(depth, wrong);
        probe
    }

    /// Records the subtree counts of `pos` at `depth` remaining plies (`hash` includes the
    /// depth key) in the entry of its bucket that the replacement rule picks. `fast` keeps
    /// `fast`, `verified` keeps `exact`, `certify` keeps `fast` in the fast entry and `exact` in
    /// the shadow. A `fast` count above [`super::fast::MAX_FAST_COUNT`] does not fit the fast
    /// payload and is not stored (a payload skip). A store finding the entry's writer lock busy
    /// is dropped. Depths above [`MAX_TABLE_DEPTH`] are not kept.
    pub fn store(
        &self,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        exact: u128,
        fast: u128,
        stats: &ThreadStats,
    ) {
        if depth > MAX_TABLE_DEPTH {
            return;
        }
        let index = self.index(hash);
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
                let replaced =
                    bucket.entries[way].store(FastContents::written(check, payload, depth));
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
                let entry = &bucket.entries[victim(&ways, tie_start(fast_check(hash)))];
                let contents =
                    ExactContents::new(hash, depth, NybbleBoard::from_position(pos), exact);
                let Some(guard) = entry.try_lock() else {
                    return;
                };
                let previous = guard.contents();
                guard.write(&contents);
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
    hash: Hash128,
    pos: &Position,
    depth: u32,
    stats: &ThreadStats,
) -> Probe {
    let tag = tag_of(hash, depth);
    let mut key = None;
    let mut wrong = 0;
    let mut probe = Probe::Miss;
    for entry in &bucket.entries {
        // A writer busy on this entry: it is passed over.
        let Some((contents, ())) = entry.read(|| ()) else {
            continue;
        };
        match contents.occupant(tag, || {
            *key.get_or_insert_with(|| NybbleBoard::from_position(pos))
        }) {
            Occupant::Same if probe == Probe::Miss => {
                probe = Probe::Hit {
                    exact: contents.count,
                    fast: contents.count,
                }
            }
            Occupant::Same | Occupant::Empty => {}
            Occupant::Other => wrong += 1,
        }
    }
    stats.wrong_occupied_probes(depth, wrong);
    probe
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

#[cfg(test)]
pub(crate) mod tests;
