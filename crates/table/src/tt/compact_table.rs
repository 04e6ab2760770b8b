//! Depth 2's compact buckets of a split fast table as a table of their own: the CPU twin of
//! the GPU's compact probe and store over its lines ([`super::compact`] holds the entry's
//! layout and rules).

use super::compact::{
    compact_check, compact_count, compact_entry, compact_probe, compact_verifier_mask,
    compact_victim, CompactBucket, COMPACT_COUNT_MASK, COMPACT_DEPTH, COMPACT_WAYS,
};
use super::split::COMPACT_BUCKETS_PER_LINE;
use super::stats::ThreadStats;
use super::table::Probe;
use crate::chess::Hash128;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Depth 2's compact buckets as a split fast table's first lines hold them on the GPU: the CPU
/// twin of its compact probe and store (`tt_probe`, `store_compact`), with the statistics the
/// shaders count for them.
#[derive(Debug)]
pub struct CompactTable {
    /// [`COMPACT_WAYS`] entries per bucket, bucket after bucket, as the GPU's lines hold them.
    entries: Vec<AtomicU64>,
    verifier_mask: u64,
}

impl CompactTable {
    /// `lines` lines of compact buckets, probed with the check bits a table whose verifier
    /// keeps `verifier_bits` compares.
    pub fn new(lines: u64, verifier_bits: u32) -> CompactTable {
        let entries = lines * COMPACT_BUCKETS_PER_LINE * COMPACT_WAYS as u64;
        CompactTable {
            entries: (0..entries).map(|_| AtomicU64::new(0)).collect(),
            verifier_mask: compact_verifier_mask(verifier_bits),
        }
    }

    /// Lines of the table (two buckets each).
    pub fn lines(&self) -> u64 {
        self.entries.len() as u64 / (COMPACT_BUCKETS_PER_LINE * COMPACT_WAYS as u64)
    }

    /// The first entry of the bucket of `hash` (`hash.lo` multiplied high onto the buckets, as
    /// `compact_bucket` picks it), and the bucket as it is now.
    fn bucket(&self, hash: Hash128) -> (usize, CompactBucket) {
        let buckets = (self.entries.len() / COMPACT_WAYS) as u128;
        let base = ((u128::from(hash.lo) * buckets) >> 64) as usize * COMPACT_WAYS;
        let entries = std::array::from_fn(|way| self.entries[base + way].load(Relaxed));
        (base, CompactBucket { entries })
    }

    /// A probe of `hash`'s bucket: a hit with the count of the first entry that accepts its
    /// check, else a miss; each occupied entry of another key is a wrong-occupied probe.
    pub fn probe(&self, hash: Hash128, stats: &ThreadStats) -> Probe {
        let (_, bucket) = self.bucket(hash);
        let (count, wrong) = compact_probe(&bucket, compact_check(hash), self.verifier_mask);
        stats.wrong_occupied_probes(COMPACT_DEPTH, wrong);
        match count {
            Some(count) => {
                stats.hit(COMPACT_DEPTH);
                Probe::Hit {
                    exact: count.into(),
                    fast: count.into(),
                }
            }
            None => {
                stats.miss(COMPACT_DEPTH);
                Probe::Miss
            }
        }
    }

    /// Stores `count` for `hash` in the entry [`compact_victim`] picks, or skips a count too
    /// large for an entry (a payload skip).
    pub fn store(&self, hash: Hash128, count: u128, stats: &ThreadStats) {
        let check = compact_check(hash);
        let entry = u64::try_from(count)
            .ok()
            .and_then(|count| compact_entry(check, count));
        let Some(entry) = entry else {
            stats.payload_skip(COMPACT_DEPTH);
            return;
        };
        let (base, bucket) = self.bucket(hash);
        let replaced = self.entries[base + compact_victim(&bucket, check)].swap(entry, Relaxed);
        let occupied = compact_count(replaced).is_some();
        stats.store(
            COMPACT_DEPTH,
            occupied.then_some(COMPACT_DEPTH),
            occupied && replaced & !COMPACT_COUNT_MASK != check,
        );
    }

    /// The entries, one word each, in the GPU's order.
    pub fn words(&self) -> Vec<u64> {
        self.entries
            .iter()
            .map(|entry| entry.load(Relaxed))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::compact::tests::HASH;
    use crate::tt::compact::MAX_COMPACT_COUNT;

    #[test]
    fn a_compact_table_answers_what_it_stored_in_the_gpus_order() {
        let stats = crate::tt::stats::StatsRegistry::default().register();
        let table = CompactTable::new(1, 64);
        assert_eq!(table.lines(), 1);
        assert_eq!(table.words(), vec![0; 2 * COMPACT_WAYS]);
        assert_eq!(table.probe(HASH, &stats), Probe::Miss);
        table.store(HASH, 400, &stats);
        assert_eq!(
            table.probe(HASH, &stats),
            Probe::Hit {
                exact: 400,
                fast: 400
            }
        );
        // Too large for an entry: skipped, the entry kept.
        table.store(HASH, u128::from(MAX_COMPACT_COUNT) + 1, &stats);
        let other = Hash128 {
            hi: HASH.hi ^ 1 << 20,
            lo: HASH.lo,
        };
        assert_eq!(table.probe(other, &stats), Probe::Miss);
        table.store(other, 3, &stats);
        // HASH.lo's top bit picks the second of the two buckets; the first entries hold the
        // stores in order.
        let base = COMPACT_WAYS;
        let words = table.words();
        assert_eq!(words[..base], [0; COMPACT_WAYS]);
        assert_eq!(compact_count(words[base]), Some(400));
        assert_eq!(compact_count(words[base + 1]), Some(3));
        assert_eq!(words[base + 2..], [0, 0]);
    }
}
