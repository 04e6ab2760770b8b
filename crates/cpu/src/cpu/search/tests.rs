//! The search through the table: exact in every mode, its statistics what the table holds, and
//! no store below a false hit.

use super::{SubtreeSearch, TtSearch};
use crate::chess::{perft, Position, Zobrist};
use crate::count::Counts;
use crate::tt::testing::{
    assert_invariants, assert_occupancy_exact, near_miss, position, table, CERTIFY_BUCKET_BYTES,
    KIWIPETE,
};
use crate::tt::{Probe, TranspositionTable, TtMode, MIN_TT_DEPTH};

/// The counts of `pos` to `depth` by the engine's search through `tt`, on one worker.
fn search_counts(tt: &TranspositionTable, zobrist: &Zobrist, pos: &Position, depth: u32) -> Counts {
    let search = TtSearch { table: tt, zobrist };
    let mut worker = search.worker();
    search.count(&mut worker, pos, zobrist.hash(pos), depth)
}

#[test]
fn perft_through_each_mode_is_exact_and_stats_consistent() {
    let zobrist = Zobrist::default();
    for (fen, depth) in [(None, 5), (Some(KIWIPETE), 4)] {
        let root = fen.map_or_else(Position::startpos, position);
        let expected = perft::perft(&root, depth);
        for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            // Small enough that entries get replaced.
            let tt = table(mode, 1 << 14, 64);
            let counts = search_counts(&tt, &zobrist, &root, depth);
            assert_eq!(counts, Counts::exact(expected), "{mode}");

            let snapshot = assert_invariants(&tt);
            let total = &snapshot.total;
            assert!(total.hits > 0, "{mode} {snapshot:?}");
            assert!(total.overwrites > 0, "{mode}");
            assert_eq!(total.false_hits, 0);
            assert_occupancy_exact(&tt);
            assert!(snapshot
                .per_depth
                .iter()
                .all(|s| (MIN_TT_DEPTH..=depth).contains(&s.depth)));
        }
    }
}

#[test]
fn certify_with_eight_bits_stays_exact_while_fast_total_drifts() {
    let zobrist = Zobrist::default();
    let root = position(KIWIPETE);
    let expected = perft::perft(&root, 4);
    let tt = table(TtMode::Certify, 1 << 12, 8);
    let counts = search_counts(&tt, &zobrist, &root, 4);
    assert_eq!(counts.nodes, expected);
    let snapshot = assert_invariants(&tt);
    assert!(snapshot.total.false_hits > 0);
    assert_ne!(counts.fast_nodes, expected);
    let risk = snapshot.risk(counts.nodes);
    assert!(risk.expected_false_hits > 1.0);
}

/// A fast table would not have searched below a false hit, so the search does not store what
/// it found there: the entry that fooled the verifier stays, and only the probe is counted.
#[test]
fn search_does_not_store_after_a_false_hit() {
    let zobrist = Zobrist::default();
    let start = Position::startpos();
    let other = position(KIWIPETE);
    // The shallowest depth the search probes: its children are bulk-counted, so the root probe
    // is the search's only table access.
    let depth = MIN_TT_DEPTH;
    let hash = zobrist.hash(&start);
    let other_hash = near_miss(hash);
    let stored_exact = perft::perft(&start, depth);
    // Unlike the searched count, so that a fast count of 7 can only come from the fooled probe.
    let stored_fast = 7;

    // One bucket holding the start position's entry; `other` searched under a hash whose key
    // passes the 8-bit verifier there.
    let tt = table(TtMode::Certify, CERTIFY_BUCKET_BYTES, 8);
    let search = TtSearch {
        table: &tt,
        zobrist: &zobrist,
    };
    let stats = tt.thread_stats();
    let key = hash ^ zobrist.depth_key(depth);
    tt.store(key, &start, depth, stored_exact, stored_fast, &stats);
    let mut worker = search.worker();
    let counts = search.count(&mut worker, &other, other_hash, depth);

    assert_eq!(
        counts,
        Counts {
            nodes: perft::perft(&other, depth),
            fast_nodes: stored_fast,
            ..Counts::default()
        }
    );
    let total = assert_invariants(&tt).total;
    assert_eq!((total.probes, total.false_hits), (1, 1));
    assert_eq!(total.stores, 1, "only the crafted entry was stored");
    assert_eq!(
        tt.probe(key, &start, depth, &stats),
        Probe::Hit {
            exact: stored_exact,
            fast: stored_fast
        }
    );

    // The same search on an empty bucket misses and stores.
    let empty = table(TtMode::Certify, CERTIFY_BUCKET_BYTES, 8);
    let counts = search_counts(&empty, &zobrist, &other, depth);
    assert_eq!(counts, Counts::exact(perft::perft(&other, depth)));
    let total = assert_invariants(&empty).total;
    assert_eq!((total.probes, total.misses, total.stores), (1, 1, 1));
}
