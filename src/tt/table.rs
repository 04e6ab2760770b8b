//! The transposition table: one flat array of slots per mode, shared by all threads through
//! `&self`, without any global lock.
//!
//! Keys: the remaining depth is part of every key. The caller passes
//! `hash = position_hash ^ zobrist.depth_key(depth)` and the same `depth`, which the exact
//! entries also store. The slot index comes from `hash.lo` (multiply-high reduction onto
//! `0..slots`); the fast verifier uses `hash.hi ^ hash.lo`.
//!
//! Replacement: always replace. A store overwrites whatever the slot holds; simple, and the
//! statistics count how often another position's entry is lost.
//!
//! Memory per slot:
//! - `fast`: a 16-byte [`FastEntry`] plus one byte of a side array holding the depth + 1 of the
//!   slot's entry (0 = empty), kept only for per-depth occupancy; probes never read it. Racing
//!   writers may leave the byte naming the other writer's depth; the used-slot total stays
//!   exact.
//! - `verified`: a 64-byte [`ExactEntry`].
//! - `certify`: a 16-byte [`FastEntry`] and, in a parallel array, a 64-byte shadow
//!   [`ExactEntry`] holding the exact key, depth and true count of the fast entry's writer.
//!   Both are written under the shadow's seqlock and read under it, so the two always belong
//!   to the same store.

use super::config::{TtConfig, TtError};
use super::exact::{tag_of, ExactContents, ExactEntry, Occupant};
use super::fast::{fast_check, verifier_mask, FastContents, FastEntry};
use super::memory::{allocate_zeroed, check_available};
use super::mode::TtMode;
use super::report::TtStatsSnapshot;
use super::stats::{StatsRegistry, ThreadStats, MAX_DEPTH};
use crate::chess::{Hash128, NybbleBoard, Position};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

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

enum Storage {
    Fast {
        entries: Box<[FastEntry]>,
        depths: Box<[AtomicU8]>,
    },
    Verified {
        entries: Box<[ExactEntry]>,
    },
    Certify {
        fast: Box<[FastEntry]>,
        shadow: Box<[ExactEntry]>,
    },
}

impl Storage {
    fn allocate(mode: TtMode, slots: usize) -> Result<Storage, TtError> {
        Ok(match mode {
            TtMode::Off => return Err(TtError::ModeOff),
            TtMode::Fast => Storage::Fast {
                entries: allocate_zeroed(slots)?,
                depths: allocate_zeroed(slots)?,
            },
            TtMode::Verified => Storage::Verified {
                entries: allocate_zeroed(slots)?,
            },
            TtMode::Certify => Storage::Certify {
                fast: allocate_zeroed(slots)?,
                shadow: allocate_zeroed(slots)?,
            },
        })
    }
}

const FAST_SLOT_BYTES: usize = size_of::<FastEntry>() + size_of::<AtomicU8>();
const VERIFIED_SLOT_BYTES: usize = size_of::<ExactEntry>();
const CERTIFY_SLOT_BYTES: usize = size_of::<FastEntry>() + size_of::<ExactEntry>();

const _: () = assert!(FAST_SLOT_BYTES == 17);
const _: () = assert!(VERIFIED_SLOT_BYTES == 64);
const _: () = assert!(CERTIFY_SLOT_BYTES == 80);

/// Bytes one slot takes in `mode`; `None` for `off`.
pub const fn slot_bytes(mode: TtMode) -> Option<usize> {
    match mode {
        TtMode::Off => None,
        TtMode::Fast => Some(FAST_SLOT_BYTES),
        TtMode::Verified => Some(VERIFIED_SLOT_BYTES),
        TtMode::Certify => Some(CERTIFY_SLOT_BYTES),
    }
}

pub struct TranspositionTable {
    storage: Storage,
    mode: TtMode,
    slots: usize,
    bytes: usize,
    verifier_bits: u32,
    verifier_mask: u64,
    stats: StatsRegistry,
}

const _: () = {
    const fn shared_by_threads<T: Send + Sync>() {}
    shared_by_threads::<TranspositionTable>();
};

impl TranspositionTable {
    /// A table of as many slots as `config.bytes` holds. `off` has no table and is an error:
    /// the caller creates none for it.
    pub fn new(config: &TtConfig) -> Result<TranspositionTable, TtError> {
        let mode = config.mode;
        let slots = config.slots()?;
        let bytes = config.table_bytes()?;
        check_available(bytes)?;
        let storage = Storage::allocate(mode, slots)?;
        Ok(TranspositionTable {
            storage,
            mode,
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

    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Bytes actually allocated for the slots (at most the configured budget).
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
        let (total, per_depth) = self.stats.sum(self.slots as u64);
        TtStatsSnapshot {
            mode: self.mode,
            slots: self.slots as u64,
            bytes: self.bytes as u64,
            verifier_bits: self.verifier_bits,
            total,
            per_depth,
        }
    }

    #[inline]
    fn index(&self, hash: Hash128) -> usize {
        ((u128::from(hash.lo) * self.slots as u128) >> 64) as usize
    }

    /// Looks up `pos` at `depth` remaining plies; `hash` already includes the depth key.
    /// Depths above [`MAX_DEPTH`] are not kept: a miss, not counted.
    pub fn probe(&self, hash: Hash128, pos: &Position, depth: u32, stats: &ThreadStats) -> Probe {
        if depth > MAX_DEPTH {
            return Probe::Miss;
        }
        let index = self.index(hash);
        match &self.storage {
            Storage::Fast { entries, .. } => self.probe_fast(&entries[index], hash, depth, stats),
            Storage::Verified { entries } => {
                probe_verified(&entries[index], hash, pos, depth, stats)
            }
            Storage::Certify { fast, shadow } => {
                self.probe_certify(&fast[index], &shadow[index], hash, pos, depth, stats)
            }
        }
    }

    fn probe_fast(
        &self,
        entry: &FastEntry,
        hash: Hash128,
        depth: u32,
        stats: &ThreadStats,
    ) -> Probe {
        let check = fast_check(hash);
        let contents = entry.load();
        // Judged by the full 64 bits, whatever the verifier width.
        if !contents.is_empty() && contents.stored_check() != check {
            stats.wrong_occupied_probe(depth);
        }
        if contents.accepts(check, self.verifier_mask) {
            stats.hit(depth);
            let count = u128::from(contents.count);
            Probe::Hit {
                exact: count,
                fast: count,
            }
        } else {
            stats.miss(depth);
            Probe::Miss
        }
    }

    fn probe_certify(
        &self,
        fast: &FastEntry,
        shadow: &ExactEntry,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    ) -> Probe {
        let Some((shadow, fast)) = shadow.read(|| fast.load()) else {
            stats.miss(depth);
            return Probe::Miss;
        };
        let occupant = shadow.occupant(tag_of(hash, depth), || NybbleBoard::from_position(pos));
        if occupant == Occupant::Other {
            stats.wrong_occupied_probe(depth);
        }
        if !fast.accepts(fast_check(hash), self.verifier_mask) {
            stats.miss(depth);
            return Probe::Miss;
        }
        let payload = u128::from(fast.count);
        if occupant == Occupant::Same {
            stats.hit(depth);
            Probe::Hit {
                exact: shadow.count,
                fast: payload,
            }
        } else {
            stats.false_hit(depth);
            Probe::FalseHit { fast: payload }
        }
    }

    /// Records the subtree counts of `pos` at `depth` remaining plies (`hash` includes the
    /// depth key). `fast` keeps `fast`, `verified` keeps `exact`, `certify` keeps `fast` in the
    /// fast entry and `exact` in the shadow. A `fast` count above `u64::MAX` does not fit the
    /// fast payload and is not stored (a payload skip). A store finding the slot's writer lock
    /// busy is dropped. Depths above [`MAX_DEPTH`] are not kept.
    pub fn store(
        &self,
        hash: Hash128,
        pos: &Position,
        depth: u32,
        exact: u128,
        fast: u128,
        stats: &ThreadStats,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let index = self.index(hash);
        match &self.storage {
            Storage::Fast { entries, depths } => {
                let Ok(payload) = u64::try_from(fast) else {
                    stats.payload_skip(depth);
                    return;
                };
                let check = fast_check(hash);
                let entry = &entries[index];
                let previous = entry.load();
                entry.store(FastContents::written(check, payload));
                let previous_depth = depths[index].swap(depth as u8 + 1, Relaxed);
                stats.store(
                    depth,
                    previous_depth.checked_sub(1).map(u32::from),
                    !previous.is_empty() && previous.stored_check() != check,
                );
            }
            Storage::Verified { entries } => {
                let contents =
                    ExactContents::new(hash, depth, NybbleBoard::from_position(pos), exact);
                let Some(guard) = entries[index].try_lock() else {
                    return;
                };
                let previous = guard.contents();
                guard.write(&contents);
                drop(guard);
                record_exact_store(&previous, &contents, depth, stats);
            }
            Storage::Certify {
                fast: fast_entries,
                shadow,
            } => {
                let Ok(payload) = u64::try_from(fast) else {
                    stats.payload_skip(depth);
                    return;
                };
                let contents =
                    ExactContents::new(hash, depth, NybbleBoard::from_position(pos), exact);
                let Some(guard) = shadow[index].try_lock() else {
                    return;
                };
                let previous = guard.contents();
                fast_entries[index].store(FastContents::written(fast_check(hash), payload));
                guard.write(&contents);
                drop(guard);
                record_exact_store(&previous, &contents, depth, stats);
            }
        }
    }
}

fn probe_verified(
    entry: &ExactEntry,
    hash: Hash128,
    pos: &Position,
    depth: u32,
    stats: &ThreadStats,
) -> Probe {
    let Some((contents, ())) = entry.read(|| ()) else {
        stats.miss(depth);
        return Probe::Miss;
    };
    match contents.occupant(tag_of(hash, depth), || NybbleBoard::from_position(pos)) {
        Occupant::Same => {
            stats.hit(depth);
            Probe::Hit {
                exact: contents.count,
                fast: contents.count,
            }
        }
        Occupant::Other => {
            stats.wrong_occupied_probe(depth);
            stats.miss(depth);
            Probe::Miss
        }
        Occupant::Empty => {
            stats.miss(depth);
            Probe::Miss
        }
    }
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
mod tests;
