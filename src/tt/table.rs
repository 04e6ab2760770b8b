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
use super::memory::{allocate, check_available};
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
        entries: Vec<FastEntry>,
        depths: Vec<AtomicU8>,
    },
    Verified {
        entries: Vec<ExactEntry>,
    },
    Certify {
        fast: Vec<FastEntry>,
        shadow: Vec<ExactEntry>,
    },
}

impl Storage {
    fn allocate(mode: TtMode, slots: usize) -> Result<Storage, TtError> {
        Ok(match mode {
            TtMode::Off => return Err(TtError::ModeOff),
            TtMode::Fast => Storage::Fast {
                entries: allocate(slots, FastEntry::default)?,
                depths: allocate(slots, AtomicU8::default)?,
            },
            TtMode::Verified => Storage::Verified {
                entries: allocate(slots, ExactEntry::default)?,
            },
            TtMode::Certify => Storage::Certify {
                fast: allocate(slots, FastEntry::default)?,
                shadow: allocate(slots, ExactEntry::default)?,
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
mod tests {
    use super::*;
    use crate::chess::movegen::{count_legal, legal_moves};
    use crate::chess::Zobrist;
    use crate::cpu::reference;
    use std::collections::BTreeSet;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn table(mode: TtMode, bytes: usize, verifier_bits: u32) -> TranspositionTable {
        TranspositionTable::new(&TtConfig {
            mode,
            bytes,
            verifier_bits,
        })
        .expect("a small table fits")
    }

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid FEN")
    }

    /// Positions reached from `root` in `plies` plies.
    fn positions_after(root: &Position, plies: u32) -> Vec<Position> {
        let mut positions = vec![*root];
        for _ in 0..plies {
            positions = positions
                .iter()
                .flat_map(|pos| {
                    legal_moves(pos)
                        .iter()
                        .map(|&m| pos.play(m))
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        positions
    }

    fn key_hash(zobrist: &Zobrist, pos: &Position, depth: u32) -> Hash128 {
        zobrist.hash(pos) ^ zobrist.depth_key(depth)
    }

    /// Perft through the table as the engine uses it: `(exact, fast)` totals, where a false hit
    /// contributes the searched count to `exact` and the fast payload to `fast`.
    fn perft(
        tt: &TranspositionTable,
        zobrist: &Zobrist,
        pos: &Position,
        depth: u32,
        stats: &ThreadStats,
    ) -> (u128, u128) {
        if depth <= 1 {
            let count = if depth == 0 {
                1
            } else {
                u128::from(count_legal(pos))
            };
            return (count, count);
        }
        let hash = key_hash(zobrist, pos, depth);
        let probe = tt.probe(hash, pos, depth, stats);
        if let Probe::Hit { exact, fast } = probe {
            return (exact, fast);
        }
        let (exact, fast) = legal_moves(pos)
            .iter()
            .map(|&m| perft(tt, zobrist, &pos.play(m), depth - 1, stats))
            .fold((0, 0), |(e, f), (ce, cf)| (e + ce, f + cf));
        tt.store(hash, pos, depth, exact, fast, stats);
        match probe {
            Probe::FalseHit { fast: payload } => (exact, payload),
            _ => (exact, fast),
        }
    }

    impl TranspositionTable {
        /// Slots holding an entry, by scanning the table.
        fn scan_used_slots(&self) -> u64 {
            let used = match &self.storage {
                Storage::Fast { entries, .. } => {
                    entries.iter().filter(|e| !e.load().is_empty()).count()
                }
                Storage::Verified { entries }
                | Storage::Certify {
                    shadow: entries, ..
                } => entries
                    .iter()
                    .filter(|e| e.read(|| ()).is_some_and(|(c, ())| !c.is_empty()))
                    .count(),
            };
            used as u64
        }
    }

    fn assert_invariants(tt: &TranspositionTable) -> TtStatsSnapshot {
        let snapshot = tt.snapshot();
        for counts in snapshot
            .per_depth
            .iter()
            .map(|stats| &stats.counts)
            .chain([&snapshot.total])
        {
            assert_eq!(counts.hits + counts.misses, counts.probes);
            assert!(counts.stores >= counts.overwrites);
            assert!(counts.false_hits <= counts.misses);
            assert!(counts.used_slots <= snapshot.slots);
            assert!((0.0..=1.0).contains(&counts.occupancy));
        }
        assert_eq!(
            snapshot.total.used_slots,
            snapshot
                .per_depth
                .iter()
                .map(|s| s.counts.used_slots)
                .sum::<u64>()
        );
        snapshot
    }

    #[test]
    fn sizing_errors() {
        let config = |mode, bytes, verifier_bits| TtConfig {
            mode,
            bytes,
            verifier_bits,
        };
        let error = |config: TtConfig| TranspositionTable::new(&config).err();

        let zero = error(config(TtMode::Fast, 0, 64));
        assert_eq!(zero, Some(TtError::ZeroSize { mode: TtMode::Fast }));
        assert!(zero.is_some_and(|e| e.to_string().contains("--tt-mb 0")));

        let small = error(config(TtMode::Verified, 63, 64));
        assert!(matches!(
            small,
            Some(TtError::TooSmall { slot_bytes: 64, .. })
        ));
        assert!(small.is_some_and(|e| e.to_string().contains("--tt-mb")));

        for bits in [0, 7, 65] {
            let wrong = error(config(TtMode::Certify, 1 << 20, bits));
            assert_eq!(wrong, Some(TtError::VerifierBits { bits }));
            assert!(wrong.is_some_and(|e| e.to_string().contains("--verifier-bits")));
        }

        assert_eq!(
            error(config(TtMode::Off, 1 << 20, 64)),
            Some(TtError::ModeOff)
        );

        let huge = error(config(TtMode::Fast, usize::MAX / 2, 64));
        assert!(
            matches!(
                huge,
                Some(TtError::MoreThanAvailable { .. } | TtError::AllocationFailed { .. })
            ),
            "{huge:?}"
        );
        assert!(huge.is_some_and(|e| e.to_string().contains("--tt-mb")));
    }

    #[test]
    fn slots_fit_the_budget() {
        for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            let tt = table(mode, 1000, 64);
            let per_slot = slot_bytes(mode).expect("a mode with a table");
            assert_eq!(tt.slots(), 1000 / per_slot);
            assert_eq!(tt.bytes(), tt.slots() * per_slot);
            assert!(tt.bytes() <= 1000);
            assert_eq!(tt.mode(), mode);
            assert_eq!(tt.verifier_bits(), 64);
        }
    }

    #[test]
    fn fast_round_trip_and_payload_skip() {
        let tt = table(TtMode::Fast, 1 << 12, 64);
        let stats = tt.thread_stats();
        let zobrist = Zobrist::default();
        let pos = Position::startpos();
        let hash = key_hash(&zobrist, &pos, 4);

        assert_eq!(tt.probe(hash, &pos, 4, &stats), Probe::Miss);
        tt.store(hash, &pos, 4, 197_281, 197_281, &stats);
        assert_eq!(
            tt.probe(hash, &pos, 4, &stats),
            Probe::Hit {
                exact: 197_281,
                fast: 197_281
            }
        );

        let big = u128::from(u64::MAX) + 1;
        let deep = key_hash(&zobrist, &pos, 15);
        tt.store(deep, &pos, 15, big, big, &stats);
        assert_eq!(tt.probe(deep, &pos, 15, &stats), Probe::Miss);
        let max = u128::from(u64::MAX);
        tt.store(deep, &pos, 15, max, max, &stats);
        assert_eq!(
            tt.probe(deep, &pos, 15, &stats),
            Probe::Hit {
                exact: max,
                fast: max
            }
        );

        let snapshot = assert_invariants(&tt);
        assert_eq!(snapshot.total.payload_skips, 1);
        assert_eq!(snapshot.total.stores, 2);
        assert_eq!(snapshot.total.hits, 2);
        assert_eq!(snapshot.total.misses, 2);
        assert_eq!(snapshot.total.used_slots, tt.scan_used_slots());
    }

    #[test]
    fn verified_needs_exact_key_and_depth() {
        // One slot: every key lands in it.
        let tt = table(TtMode::Verified, 64, 64);
        let stats = tt.thread_stats();
        let zobrist = Zobrist::default();
        let start = Position::startpos();
        let other = position(KIWIPETE);
        let hash = key_hash(&zobrist, &start, 3);

        tt.store(hash, &start, 3, 8_902, 8_902, &stats);
        assert_eq!(
            tt.probe(hash, &start, 3, &stats),
            Probe::Hit {
                exact: 8_902,
                fast: 8_902
            }
        );
        // Another position under the very same hash (a full 128-bit collision): the exact key
        // tells them apart.
        assert_eq!(tt.probe(hash, &other, 3, &stats), Probe::Miss);
        // The same position at another depth, even under the same hash.
        assert_eq!(tt.probe(hash, &start, 4, &stats), Probe::Miss);
        // Another position whose hash only shares the slot.
        let other_hash = key_hash(&zobrist, &other, 3);
        assert_eq!(tt.probe(other_hash, &other, 3, &stats), Probe::Miss);

        let snapshot = assert_invariants(&tt);
        assert_eq!(snapshot.total.wrong_occupied_probes, 3);
        assert_eq!(snapshot.total.hits, 1);

        // Replacing the entry with another position's counts as an overwrite.
        tt.store(other_hash, &other, 3, 97_862, 97_862, &stats);
        tt.store(other_hash, &other, 3, 97_862, 97_862, &stats);
        let snapshot = assert_invariants(&tt);
        assert_eq!(snapshot.total.stores, 3);
        assert_eq!(snapshot.total.overwrites, 1);
        assert_eq!(snapshot.total.used_slots, 1);
    }

    #[test]
    fn certify_catches_false_hits_of_a_narrow_verifier() {
        let tt = table(TtMode::Certify, CERTIFY_SLOT_BYTES, 8);
        let stats = tt.thread_stats();
        let zobrist = Zobrist::default();
        let start = Position::startpos();
        let other = position(KIWIPETE);
        let hash = key_hash(&zobrist, &start, 3);
        // Same slot (same `lo`), verifications differing only above the low 8 bits.
        let near = Hash128 {
            hi: hash.hi ^ 1 << 20,
            lo: hash.lo,
        };

        let exact = 1u128 << 70;
        tt.store(hash, &start, 3, exact, 5, &stats);
        assert_eq!(
            tt.probe(hash, &start, 3, &stats),
            Probe::Hit { exact, fast: 5 }
        );
        assert_eq!(
            tt.probe(near, &other, 3, &stats),
            Probe::FalseHit { fast: 5 }
        );
        // A full hash collision fools even a 64-bit verifier; the shadow key does not.
        assert_eq!(
            tt.probe(hash, &other, 3, &stats),
            Probe::FalseHit { fast: 5 }
        );

        let snapshot = assert_invariants(&tt);
        assert_eq!(snapshot.total.hits, 1);
        assert_eq!(snapshot.total.false_hits, 2);
        assert_eq!(snapshot.total.misses, 2);
        assert_eq!(snapshot.total.wrong_occupied_probes, 2);

        let wide = table(TtMode::Certify, CERTIFY_SLOT_BYTES, 64);
        let wide_stats = wide.thread_stats();
        wide.store(hash, &start, 3, exact, 5, &wide_stats);
        assert_eq!(wide.probe(near, &other, 3, &wide_stats), Probe::Miss);
        assert_eq!(
            wide.probe(hash, &other, 3, &wide_stats),
            Probe::FalseHit { fast: 5 }
        );
    }

    #[test]
    fn fast_narrow_verifier_accepts_what_certify_flags() {
        let tt = table(TtMode::Fast, FAST_SLOT_BYTES, 8);
        let stats = tt.thread_stats();
        let pos = Position::startpos();
        let hash = key_hash(&Zobrist::default(), &pos, 3);
        let near = Hash128 {
            hi: hash.hi ^ 1 << 20,
            lo: hash.lo,
        };
        tt.store(hash, &pos, 3, 8_902, 8_902, &stats);
        assert_eq!(
            tt.probe(near, &pos, 3, &stats),
            Probe::Hit {
                exact: 8_902,
                fast: 8_902
            }
        );
        assert_eq!(tt.snapshot().total.wrong_occupied_probes, 1);
    }

    #[test]
    fn perft_through_each_mode_is_exact_and_stats_consistent() {
        let zobrist = Zobrist::default();
        for (fen, depth) in [(None, 5), (Some(KIWIPETE), 4)] {
            let root = fen.map_or_else(Position::startpos, position);
            let expected = reference::perft(&root, depth);
            for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
                // Small enough that entries get replaced.
                let tt = table(mode, 1 << 14, 64);
                let stats = tt.thread_stats();
                let (exact, fast) = perft(&tt, &zobrist, &root, depth, &stats);
                assert_eq!(exact, expected, "{mode}");
                assert_eq!(fast, expected, "{mode}");

                let snapshot = assert_invariants(&tt);
                let total = &snapshot.total;
                assert!(total.hits > 0, "{mode}");
                assert!(total.overwrites > 0, "{mode}");
                assert_eq!(total.false_hits, 0);
                assert_eq!(total.used_slots, tt.scan_used_slots(), "{mode}");
                assert!(snapshot
                    .per_depth
                    .iter()
                    .all(|s| (2..=depth).contains(&s.depth)));
            }
        }
    }

    #[test]
    fn certify_with_eight_bits_stays_exact_while_fast_total_drifts() {
        let zobrist = Zobrist::default();
        let root = position(KIWIPETE);
        let expected = reference::perft(&root, 4);
        let tt = table(TtMode::Certify, 1 << 12, 8);
        let stats = tt.thread_stats();
        let (exact, fast) = perft(&tt, &zobrist, &root, 4, &stats);
        assert_eq!(exact, expected);
        let snapshot = assert_invariants(&tt);
        assert!(snapshot.total.false_hits > 0);
        assert_ne!(fast, expected);
        let risk = snapshot.risk(exact);
        assert!(risk.expected_false_hits > 1.0);
    }

    #[test]
    fn json_has_exactly_the_agreed_keys() {
        let zobrist = Zobrist::default();
        let root = Position::startpos();
        let tt = table(TtMode::Certify, 1 << 14, 64);
        let stats = tt.thread_stats();
        let (exact, fast) = perft(&tt, &zobrist, &root, 4, &stats);
        let snapshot = tt.snapshot();
        let json = snapshot.to_json(Some(fast), exact);
        let keys = |value: &serde_json::Value| -> BTreeSet<String> {
            value
                .as_object()
                .map(|object| object.keys().cloned().collect())
                .unwrap_or_default()
        };
        let expected: BTreeSet<String> = [
            "mode",
            "slots",
            "bytes",
            "probes",
            "hits",
            "misses",
            "stores",
            "overwrites",
            "occupancy",
            "wrong_occupied_probes",
            "false_hits",
            "fast_total",
            "payload_skips",
            "per_depth",
            "risk",
        ]
        .map(String::from)
        .into();
        assert_eq!(keys(&json), expected);

        let per_depth = json["per_depth"].as_array().cloned().unwrap_or_default();
        assert_eq!(per_depth.len(), 3);
        let depth_keys: BTreeSet<String> = [
            "depth",
            "probes",
            "hits",
            "misses",
            "stores",
            "overwrites",
            "occupancy",
            "wrong_occupied_probes",
            "false_hits",
            "payload_skips",
        ]
        .map(String::from)
        .into();
        for entry in &per_depth {
            assert_eq!(keys(entry), depth_keys);
        }
        let risk_keys: BTreeSet<String> = [
            "verifier_bits",
            "wrong_occupied_probes",
            "expected_false_hits",
            "p_false_hit",
            "nodes",
            "scale_pairs",
        ]
        .map(String::from)
        .into();
        assert_eq!(keys(&json["risk"]), risk_keys);
        assert_eq!(json["mode"], "certify");
        assert_eq!(json["fast_total"], "197281");
        assert_eq!(json["risk"]["nodes"], "197281");
        assert_eq!(json["probes"], snapshot.total.probes);

        let fast_only = tt.snapshot().to_json(None, exact);
        assert!(fast_only["fast_total"].is_null());

        let text = snapshot.render_text(Some(fast), exact);
        assert!(text.contains("total"));
        assert!(text.contains("risk at 64 bits"));
        assert_eq!(text.lines().count(), 2 + 3 + 1 + 2);
    }

    /// Many writers and readers on a four-slot table: every hit must return the counts that
    /// belong to its key, or a torn entry passed.
    fn stress(mode: TtMode) {
        let zobrist = Zobrist::default();
        // Twelve keys on four slots: constant replacement, and still frequent hits. Several
        // depths per position, and counts depending on the depth in every word, because a torn
        // read can only pass the exact key check when both writes were of the same position.
        let positions = positions_after(&Position::startpos(), 2);
        let keys: Vec<(&Position, u32)> = positions[..3]
            .iter()
            .flat_map(|pos| (2..=5).map(move |depth| (pos, depth)))
            .collect();
        let exact_of = |key: &NybbleBoard, depth: u32| {
            let depth = u64::from(depth);
            u128::from(key.planes[1] ^ depth) << 64 | u128::from(key.planes[0] ^ depth)
        };
        let fast_of = |key: &NybbleBoard, depth: u32| u128::from(key.planes[2] ^ u64::from(depth));
        let tt = table(mode, 4 * slot_bytes(mode).unwrap_or(64), 64);
        const THREADS: usize = 4;
        // All workers start together, so that their probes and stores overlap.
        let start = std::sync::Barrier::new(THREADS);
        let hits: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..THREADS)
                .map(|thread| {
                    let (tt, zobrist, keys, start) = (&tt, &zobrist, &keys, &start);
                    scope.spawn(move || {
                        let stats = tt.thread_stats();
                        start.wait();
                        let mut hits = 0;
                        for round in 0..200_000usize {
                            // Each thread probes a key three times in a row.
                            let (pos, depth) = keys[(round / 3 + thread * 5) % keys.len()];
                            let key = NybbleBoard::from_position(pos);
                            let hash = key_hash(zobrist, pos, depth);
                            match tt.probe(hash, pos, depth, &stats) {
                                Probe::Hit { exact, fast } => {
                                    hits += 1;
                                    assert_eq!(exact, exact_of(&key, depth));
                                    let expected_fast = match mode {
                                        TtMode::Certify => fast_of(&key, depth),
                                        _ => exact_of(&key, depth),
                                    };
                                    assert_eq!(fast, expected_fast);
                                }
                                Probe::FalseHit { .. } => panic!("false hit at 64 bits"),
                                Probe::Miss => {
                                    tt.store(
                                        hash,
                                        pos,
                                        depth,
                                        exact_of(&key, depth),
                                        fast_of(&key, depth),
                                        &stats,
                                    );
                                }
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| {
                    worker
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .sum()
        });
        let snapshot = assert_invariants(&tt);
        assert_eq!(snapshot.total.hits, hits);
        assert!(hits > 0);
        assert_eq!(snapshot.total.used_slots, tt.scan_used_slots());
    }

    #[test]
    fn verified_seqlock_never_returns_a_torn_entry() {
        stress(TtMode::Verified);
    }

    #[test]
    fn certify_seqlock_never_returns_a_torn_entry() {
        stress(TtMode::Certify);
    }
}
