//! Twin of the shaders' table (`glsl/common/tt_probe.glsl`, `tt_store.glsl`): the CPU's table,
//! whose buckets are the GPU table's layout byte for byte (the probe self-test and
//! `load_table` copy them across) and whose replacement rule the GPU's mirrors
//! (`crates/table/src/tt/replace.rs`), probed and stored where the stages probe and store,
//! with the keys the shaders hash positions with. A fast table split by depth has its compact
//! lines too ([`CompactTable`]): depth 2 goes there, the deeper depths to the CPU's table,
//! which then stands for the lines after them.

use crate::chess::{Hash128, Position, Zobrist};
use crate::tt::compact::COMPACT_DEPTH;
use crate::tt::compact_table::CompactTable;
use crate::tt::{
    BucketRef, Probe, ThreadStats, TranspositionTable, TtMode, TtStatsSnapshot, MAX_TABLE_DEPTH,
    MIN_TT_DEPTH,
};

/// A table and its keys, as the stages of one chunk see them.
pub struct TwinTable {
    table: TranspositionTable,
    /// A split fast table's compact lines, which hold depth 2.
    compact: Option<CompactTable>,
    zobrist: Zobrist,
    stats: ThreadStats,
}

impl std::fmt::Debug for TwinTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwinTable")
            .field("mode", &self.table.mode())
            .field("buckets", &self.table.buckets())
            .field("compact_lines", &self.compact_lines())
            .finish_non_exhaustive()
    }
}

impl TwinTable {
    /// `table` (of any mode but off), its positions hashed with `zobrist`.
    pub fn new(table: TranspositionTable, zobrist: Zobrist) -> TwinTable {
        debug_assert!(table.mode() != TtMode::Off);
        let stats = table.thread_stats();
        TwinTable {
            table,
            compact: None,
            zobrist,
            stats,
        }
    }

    /// A fast table split by depth: `compact_lines` lines of compact buckets for depth 2 before
    /// `table`'s buckets, which hold the deeper depths.
    pub fn split(table: TranspositionTable, compact_lines: u64, zobrist: Zobrist) -> TwinTable {
        debug_assert_eq!(table.mode(), TtMode::Fast);
        let compact = CompactTable::new(compact_lines, table.verifier_bits());
        TwinTable {
            compact: Some(compact),
            ..TwinTable::new(table, zobrist)
        }
    }

    /// Lines given to depth 2's compact buckets (0 when the table is shared by every depth).
    pub fn compact_lines(&self) -> u64 {
        self.compact.as_ref().map_or(0, CompactTable::lines)
    }

    /// The compact lines if `depth` is kept there.
    fn compact_at(&self, depth: u32) -> Option<&CompactTable> {
        self.compact.as_ref().filter(|_| depth == COMPACT_DEPTH)
    }

    /// Whether positions `depth` plies from the leaves are probed and stored (`tt_enabled`).
    pub fn enabled(&self, depth: u32) -> bool {
        (MIN_TT_DEPTH..=MAX_TABLE_DEPTH).contains(&depth)
    }

    /// Whether fast counts are kept apart from exact ones (certify).
    pub fn certifies(&self) -> bool {
        self.table.mode() == TtMode::Certify
    }

    /// The hash of `position` at `depth` plies, as `tt_hash` makes it.
    pub fn hash(&self, position: &Position, depth: u32) -> Hash128 {
        self.zobrist.hash(position) ^ self.zobrist.depth_key(depth)
    }

    pub fn probe(&self, hash: Hash128, position: &Position, depth: u32) -> Probe {
        match self.compact_at(depth) {
            Some(compact) => compact.probe(hash, &self.stats),
            None => self.table.probe(hash, position, depth, &self.stats),
        }
    }

    /// Stores the counts of `position`: a compact entry keeps the fast count (the only one in
    /// fast mode).
    pub fn store(&self, hash: Hash128, position: &Position, depth: u32, exact: u128, fast: u128) {
        match self.compact_at(depth) {
            Some(compact) => compact.store(hash, fast, &self.stats),
            None => self
                .table
                .store(hash, position, depth, exact, fast, &self.stats),
        }
    }

    /// The keys positions are hashed with.
    pub fn zobrist(&self) -> &Zobrist {
        &self.zobrist
    }

    /// The table's arrays as the GPU lays them out: the compact lines' words first, then
    /// [`table_words`].
    pub fn words(&self) -> (Vec<u64>, Vec<u64>) {
        let (fast, exact) = table_words(&self.table);
        let mut words = self
            .compact
            .as_ref()
            .map_or(Vec::new(), CompactTable::words);
        words.extend(fast);
        (words, exact)
    }

    pub fn table(&self) -> &TranspositionTable {
        &self.table
    }

    /// The table's statistics so far.
    pub fn snapshot(&self) -> TtStatsSnapshot {
        self.table.snapshot()
    }
}

/// The table's arrays as the GPU lays them out: the fast buckets' words and the exact entries'
/// words (either may be empty).
pub fn table_words(table: &TranspositionTable) -> (Vec<u64>, Vec<u64>) {
    let (mut fast, mut exact) = (Vec::new(), Vec::new());
    for index in 0..table.buckets() {
        let fast_bucket = match table.bucket(index) {
            BucketRef::Fast(bucket) => Some(bucket),
            BucketRef::Verified(bucket) => {
                exact.extend(bucket.entries.iter().flat_map(|entry| entry.words()));
                None
            }
            BucketRef::Certify { fast, shadows } => {
                exact.extend(shadows.iter().flat_map(|entry| entry.words()));
                Some(fast)
            }
        };
        for entry in fast_bucket.into_iter().flat_map(|bucket| &bucket.entries) {
            let contents = entry.load();
            fast.extend([contents.verification, contents.data]);
        }
    }
    (fast, exact)
}
