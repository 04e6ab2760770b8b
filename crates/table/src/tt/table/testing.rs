//! What the tests of the table and of the searches through it (the CPU backend's) share: a
//! small table of a mode, and checks of its statistics against a scan of what it holds. A
//! failed check panics, as a test's assertion does.

use super::*;
use crate::tt::layout::CERTIFY_SLOT_BYTES;

pub const CERTIFY_BUCKET_BYTES: usize = FAST_WAYS * CERTIFY_SLOT_BYTES;

pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

pub fn table(mode: TtMode, bytes: usize, verifier_bits: u32) -> TranspositionTable {
    TranspositionTable::new(&TtConfig {
        mode,
        bytes,
        verifier_bits,
        move_stats: false,
    })
    .expect("a small table fits")
}

pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

impl TranspositionTable {
    /// The remaining depth of every entry, by scanning the table (`None`: empty).
    pub(super) fn scan_depths(&self) -> Vec<Option<u32>> {
        match &self.storage {
            Storage::Fast { buckets } => buckets
                .iter()
                .flat_map(|bucket| bucket.load().map(|entry| entry.depth()))
                .collect(),
            Storage::Verified { buckets } => buckets
                .iter()
                .flat_map(|bucket| &bucket.entries)
                .map(exact_depth)
                .collect(),
            Storage::Certify { shadow, .. } => shadow.iter().map(exact_depth).collect(),
        }
    }

    /// Slots holding an entry, by scanning the table.
    pub(super) fn scan_used_slots(&self) -> u64 {
        self.scan_depths().iter().flatten().count() as u64
    }

    /// Used slots per depth, by scanning the table, as the statistics list them.
    pub(super) fn scan_used_by_depth(&self) -> Vec<(u32, u64)> {
        let mut used = std::collections::BTreeMap::new();
        for depth in self.scan_depths().into_iter().flatten() {
            *used.entry(depth).or_insert(0) += 1;
        }
        used.into_iter().collect()
    }
}

fn exact_depth(entry: &ExactEntry) -> Option<u32> {
    entry
        .read(|| ())
        .and_then(|(contents, ())| contents.depth())
}

/// The per-depth used-slot statistics equal what the table holds.
pub fn assert_occupancy_exact(tt: &TranspositionTable) {
    let snapshot = tt.snapshot();
    let counted: Vec<(u32, u64)> = snapshot
        .per_depth
        .iter()
        .map(|stats| (stats.depth, stats.counts.used_slots))
        .filter(|&(_, used)| used > 0)
        .collect();
    assert_eq!(counted, tt.scan_used_by_depth(), "{:?}", tt.mode());
    assert_eq!(snapshot.total.used_slots, tt.scan_used_slots());
}

pub fn assert_invariants(tt: &TranspositionTable) -> TtStatsSnapshot {
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

/// `hash` with its fast check changed only above the low 8 bits, in the same slot (same `lo`):
/// a probe with it passes an 8-bit verifier for an entry stored under `hash`.
pub fn near_miss(hash: Hash128) -> Hash128 {
    Hash128 {
        hi: hash.hi ^ 1 << 20,
        lo: hash.lo,
    }
}
