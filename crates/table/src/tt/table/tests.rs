//! The table's sizing, probes and stores in each mode, its statistics, and its seqlocks under
//! concurrent writers.

use super::testing::*;
use super::*;
use crate::chess::movegen::legal_moves;
use crate::chess::Zobrist;
use crate::tt::fast::MAX_FAST_COUNT;
use crate::tt::layout::{bucket_bytes, slot_bytes, ways};

const FAST_BUCKET_BYTES: usize = size_of::<FastBucket>();
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

#[test]
fn sizing_errors() {
    let config = |mode, bytes, verifier_bits| TtConfig {
        mode,
        bytes,
        verifier_bits,
        move_stats: false,
    };
    let error = |config: TtConfig| TranspositionTable::new(&config).err();

    assert_eq!(
        error(config(TtMode::Fast, 0, 64)),
        Some(TtError::ZeroSize { mode: TtMode::Fast })
    );
    assert_eq!(
        error(config(TtMode::Verified, 127, 64)),
        Some(TtError::TooSmall {
            mode: TtMode::Verified,
            bytes: 127,
            bucket_bytes: 128
        })
    );
    for bits in [0, 7, 65] {
        assert_eq!(
            error(config(TtMode::Certify, 1 << 20, bits)),
            Some(TtError::VerifierBits { bits })
        );
    }
    assert_eq!(
        error(config(TtMode::Off, 1 << 20, 64)),
        Some(TtError::ModeOff)
    );

    // Refused before allocating where the system reports its available memory; otherwise the
    // allocation itself fails.
    let huge = config(TtMode::Fast, usize::MAX / 2, 64);
    let needed = huge.table_bytes().expect("valid settings");
    match error(huge) {
        Some(TtError::MoreThanAvailable {
            needed: refused, ..
        }) => assert_eq!(refused, needed),
        Some(TtError::AllocationFailed { bytes }) => assert!(bytes <= needed),
        other => panic!("expected a memory error, got {other:?}"),
    }
}

#[test]
fn slots_fit_the_budget() {
    for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
        let tt = table(mode, 1000, 64);
        let per_slot = slot_bytes(mode).expect("a mode with a table");
        let per_bucket = bucket_bytes(mode).expect("a mode with a table");
        assert_eq!(tt.buckets(), 1000 / per_bucket);
        assert_eq!(
            tt.slots(),
            tt.buckets() * ways(mode).expect("a mode with a table")
        );
        assert_eq!(tt.bytes(), tt.slots() * per_slot);
        assert_eq!(tt.bytes(), tt.buckets() * per_bucket);
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

    let big = u128::from(MAX_FAST_COUNT) + 1;
    let deep = key_hash(&zobrist, &pos, 15);
    tt.store(deep, &pos, 15, big, big, &stats);
    assert_eq!(tt.probe(deep, &pos, 15, &stats), Probe::Miss);
    let max = u128::from(MAX_FAST_COUNT);
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
    // One bucket: every key lands in it.
    let tt = table(TtMode::Verified, 128, 64);
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
    // Another position whose hash only shares the bucket.
    let other_hash = key_hash(&zobrist, &other, 3);
    assert_eq!(tt.probe(other_hash, &other, 3, &stats), Probe::Miss);

    let snapshot = assert_invariants(&tt);
    assert_eq!(snapshot.total.wrong_occupied_probes, 3);
    assert_eq!(snapshot.total.hits, 1);

    // The second entry takes the other position; storing it again refreshes it in place.
    tt.store(other_hash, &other, 3, 97_862, 97_862, &stats);
    tt.store(other_hash, &other, 3, 97_862, 97_862, &stats);
    let snapshot = assert_invariants(&tt);
    assert_eq!(snapshot.total.stores, 3);
    assert_eq!(snapshot.total.overwrites, 0);
    assert_eq!(snapshot.total.used_slots, 2);
    // Both entries now meet a probe of a third key.
    assert_eq!(tt.probe(hash, &start, 4, &stats), Probe::Miss);
    assert_eq!(tt.snapshot().total.wrong_occupied_probes, 5);

    // A third key evicts one of the two equally deep entries, the one its hash bits pick
    // (here the other position's): an overwrite.
    let shallow = key_hash(&zobrist, &start, 2);
    tt.store(shallow, &start, 2, 400, 400, &stats);
    let snapshot = assert_invariants(&tt);
    assert_eq!(snapshot.total.overwrites, 1);
    assert_eq!(snapshot.total.used_slots, 2);
    assert_eq!(
        tt.probe(hash, &start, 3, &stats),
        Probe::Hit {
            exact: 8_902,
            fast: 8_902
        }
    );
    assert_eq!(tt.probe(other_hash, &other, 3, &stats), Probe::Miss);
    assert_occupancy_exact(&tt);
}

#[test]
fn certify_catches_false_hits_of_a_narrow_verifier() {
    let tt = table(TtMode::Certify, CERTIFY_BUCKET_BYTES, 8);
    let stats = tt.thread_stats();
    let zobrist = Zobrist::default();
    let start = Position::startpos();
    let other = position(KIWIPETE);
    let hash = key_hash(&zobrist, &start, 3);
    let near = near_miss(hash);

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

    let wide = table(TtMode::Certify, CERTIFY_BUCKET_BYTES, 64);
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
    let tt = table(TtMode::Fast, FAST_BUCKET_BYTES, 8);
    let stats = tt.thread_stats();
    let pos = Position::startpos();
    let hash = key_hash(&Zobrist::default(), &pos, 3);
    tt.store(hash, &pos, 3, 8_902, 8_902, &stats);
    assert_eq!(
        tt.probe(near_miss(hash), &pos, 3, &stats),
        Probe::Hit {
            exact: 8_902,
            fast: 8_902
        }
    );
    assert_eq!(tt.snapshot().total.wrong_occupied_probes, 1);
}

/// Many writers and readers on a four-entry table: every hit must return the counts that
/// belong to its key, or a torn entry passed.
fn stress(mode: TtMode) {
    let zobrist = Zobrist::default();
    // Twelve keys on four entries: constant replacement, and still frequent hits. Several
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
    // Within the fast payload's 56 bits.
    let fast_of = |key: &NybbleBoard, depth: u32| {
        u128::from((key.planes[2] ^ u64::from(depth)) & MAX_FAST_COUNT)
    };
    let tt = table(mode, 4 * slot_bytes(mode).unwrap_or(64), 64);
    assert_eq!(tt.slots(), 4);
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
    assert_occupancy_exact(&tt);
}

#[test]
fn verified_seqlock_never_returns_a_torn_entry() {
    stress(TtMode::Verified);
}

#[test]
fn certify_seqlock_never_returns_a_torn_entry() {
    stress(TtMode::Certify);
}

#[test]
fn fast_stress_keeps_occupancy_exact() {
    // Fast entries carry 56-bit counts: the stress's 128-bit counts would be payload skips, so
    // this one stores small counts and checks what it reads.
    let zobrist = Zobrist::default();
    let positions = positions_after(&Position::startpos(), 2);
    let keys: Vec<(&Position, u32)> = positions[..6]
        .iter()
        .flat_map(|pos| (2..=5).map(move |depth| (pos, depth)))
        .collect();
    let count_of = |pos: &Position, depth: u32| {
        u128::from(NybbleBoard::from_position(pos).planes[0] >> 9 ^ u64::from(depth))
    };
    let tt = table(TtMode::Fast, 2 * FAST_BUCKET_BYTES, 64);
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let (tt, zobrist, keys) = (&tt, &zobrist, &keys);
            scope.spawn(move || {
                let stats = tt.thread_stats();
                for round in 0..100_000usize {
                    let (pos, depth) = keys[(round / 2 + thread * 7) % keys.len()];
                    let hash = key_hash(zobrist, pos, depth);
                    match tt.probe(hash, pos, depth, &stats) {
                        Probe::Hit { exact, .. } => assert_eq!(exact, count_of(pos, depth)),
                        Probe::FalseHit { .. } => panic!("false hit in fast"),
                        Probe::Miss => {
                            let count = count_of(pos, depth);
                            tt.store(hash, pos, depth, count, count, &stats);
                        }
                    }
                }
            });
        }
    });
    assert_invariants(&tt);
    assert_occupancy_exact(&tt);
}

/// Keys of distinct positions, each at its own depth, all in bucket 0 of a one-bucket table.
fn bucket_keys(zobrist: &Zobrist) -> Vec<Position> {
    positions_after(&Position::startpos(), 1)
        .into_iter()
        .take(8)
        .inspect(|pos| assert_ne!(zobrist.hash(pos), zobrist.hash(&Position::startpos())))
        .collect()
}

/// Every entry of a bucket is used; a new entry always gets in, even into a bucket of deeper
/// entries, by evicting the shallowest; deeper entries survive shallower stores while the
/// bucket holds a shallower entry; and the per-depth occupancy stays exact, in every mode.
#[test]
fn replacement_keeps_deep_entries_and_lets_new_ones_in() {
    let zobrist = Zobrist::default();
    let positions = bucket_keys(&zobrist);
    for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
        let tt = table(mode, bucket_bytes(mode).expect("a table mode"), 64);
        let ways = tt.slots();
        assert_eq!(ways, crate::tt::layout::ways(mode).expect("a table mode"));
        let stats = tt.thread_stats();
        let store = |index: usize, depth: u32| {
            let pos = &positions[index];
            let count = 1000 * index as u128 + u128::from(depth);
            tt.store(
                key_hash(&zobrist, pos, depth),
                pos,
                depth,
                count,
                count,
                &stats,
            );
        };
        let hits = |index: usize, depth: u32| {
            let pos = &positions[index];
            let count = 1000 * index as u128 + u128::from(depth);
            match tt.probe(key_hash(&zobrist, pos, depth), pos, depth, &stats) {
                Probe::Hit { exact, fast } => {
                    assert_eq!((exact, fast), (count, count), "{mode}");
                    true
                }
                Probe::Miss => false,
                Probe::FalseHit { .. } => panic!("{mode}: false hit at 64 bits"),
            }
        };
        let deep_survivors = |from: usize| (from..ways).all(|index| hits(index, 10 + index as u32));

        // Fill every entry, position i at depth 10 + i.
        for index in 0..ways {
            store(index, 10 + index as u32);
        }
        assert_eq!(tt.scan_used_slots(), ways as u64, "{mode}");
        assert!(deep_survivors(0), "{mode}");
        assert_occupancy_exact(&tt);
        // Storing a held key again refreshes it in place.
        store(0, 10);
        assert_eq!(tt.snapshot().total.overwrites, 0, "{mode}");
        assert!(deep_survivors(0), "{mode}");

        // A bucket of deeper entries still takes a shallow one: the shallowest (position 0 at
        // depth 10) yields.
        store(ways, 2);
        assert!(hits(ways, 2), "{mode}");
        assert!(!hits(0, 10), "{mode}");
        assert!(deep_survivors(1), "{mode}");
        assert_occupancy_exact(&tt);

        // Shallower stores replace the shallow entry and nothing deeper.
        store(ways + 1, 3);
        assert!(hits(ways + 1, 3), "{mode}");
        assert!(!hits(ways, 2), "{mode}");
        store(ways + 2, 3);
        assert!(hits(ways + 2, 3), "{mode}");
        assert!(!hits(ways + 1, 3), "{mode}");
        assert!(deep_survivors(1), "{mode}");

        let snapshot = assert_invariants(&tt);
        // The stores into a full bucket: the three shallow ones.
        assert_eq!(snapshot.total.overwrites, 3, "{mode}");
        assert_eq!(snapshot.total.stores, ways as u64 + 4, "{mode}");
        assert_eq!(snapshot.total.used_slots, ways as u64, "{mode}");
        assert_occupancy_exact(&tt);
    }
}
