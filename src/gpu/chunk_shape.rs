//! The stages of one chunk, level by level, as both executors run them (the Vulkan backend's
//! `backend/chunk.rs` and the CPU twin, `gpu/twin.rs`): which levels are expanded and
//! deduplicated, which the leaf counts, and the push constants of each stage.

use crate::backend::MAX_DEPTH;
use crate::gpu::layouts::StepConstants;
use crate::gpu::shader_layout::{
    COMPACT_LEAF, DEDUP_CHILDREN, DEDUP_CLEAR, DEDUP_INPUT, DEDUP_OUTPUT, DEDUP_RESOLVE, MAX_LEVELS,
};
use crate::tt::MIN_TT_DEPTH;

// A chunk of items r plies deep (r at most the depth of a job) has r - 1 levels.
const _: () = assert!(MAX_DEPTH <= MAX_LEVELS + 1);

/// The stages of a chunk of items `remaining` plies deep: levels, their depths, which are
/// deduplicated, and whether the leaf level is compact (a chunk more than two plies deep, but
/// in a statistics run: its leaf level is written as leaf entries, each made, counted and added
/// into its parent by the leaf).
#[derive(Clone, Copy, Debug)]
pub struct ChunkShape {
    remaining: u32,
    with_table: bool,
    /// A move-type statistics run: every level keeps its positions' statistics beside their
    /// counts, the leaf level too, which is then never compact (a leaf entry has no room for
    /// them).
    move_stats: bool,
}

impl ChunkShape {
    pub fn new(remaining: u32, with_table: bool) -> ChunkShape {
        debug_assert!((1..=MAX_LEVELS + 1).contains(&remaining));
        ChunkShape {
            remaining,
            with_table,
            move_stats: false,
        }
    }

    /// The shape of a chunk of a move-type statistics run (`move_stats`) or of a node count.
    pub fn counting_stats(self, move_stats: bool) -> ChunkShape {
        ChunkShape { move_stats, ..self }
    }

    /// The level the leaf stage counts: every level before it is expanded.
    pub fn leaf_level(self) -> u32 {
        self.remaining.saturating_sub(2)
    }

    /// The leaf level is compact unless it is the chunk's own (the items) or the run counts
    /// statistics.
    pub fn compact_leaf(self) -> bool {
        self.leaf_level() > 0 && !self.move_stats
    }

    /// `COMPACT_LEAF` for the stages of `level` that write, read or sum the compact leaf level.
    pub fn compact_flag(self, level: u32) -> u32 {
        if self.compact_leaf() && level == self.leaf_level() {
            COMPACT_LEAF
        } else {
            0
        }
    }

    /// Plies below the positions of `level`.
    pub fn level_remaining(self, level: u32) -> u32 {
        self.remaining - level
    }

    /// With a table, every level but the chunk's own (whose counts go back to the host) is
    /// deduplicated before it is searched.
    pub fn deduplicated(self, level: u32) -> bool {
        self.with_table && level > 0 && self.level_remaining(level) >= MIN_TT_DEPTH
    }

    pub fn input_dedup(self, level: u32) -> u32 {
        if self.deduplicated(level) {
            DEDUP_INPUT
        } else {
            0
        }
    }

    pub fn step(self, level: u32, flags: u32) -> StepConstants {
        StepConstants {
            level,
            remaining: self.level_remaining(level),
            flags,
            first_invocation: 0,
        }
    }

    /// The expand of a level before a deduplicated one hands each child its hash; the expand
    /// before the compact leaf level writes leaf entries instead, whose hashes dedup and leaf
    /// work out from their parents'.
    pub fn expand(self, level: u32) -> StepConstants {
        let output = match self.compact_flag(level + 1) {
            0 if self.deduplicated(level + 1) => DEDUP_OUTPUT,
            compact => compact,
        };
        self.step(level, self.input_dedup(level) | output)
    }

    /// Dedup of `level`: `clear` clears the set, else positions are inserted.
    pub fn dedup(self, level: u32, clear: bool) -> StepConstants {
        let clear = if clear { DEDUP_CLEAR } else { 0 };
        self.step(level, clear | self.compact_flag(level))
    }

    /// The leaf skips a compact level's duplicates by their entries, and those of a leaf
    /// level that is not compact by their `children` entries, as expand does (the chunk's own
    /// level is never deduplicated).
    pub fn leaf(self) -> StepConstants {
        let level = self.leaf_level();
        let duplicates = match self.compact_leaf() {
            true => COMPACT_LEAF,
            false => self.input_dedup(level),
        };
        self.step(level, duplicates)
    }

    /// After the leaf, the duplicates of a deduplicated compact leaf level add their counts
    /// into their parents (a leaf level that is not compact leaves them to upsweep, as any
    /// other level does).
    pub fn resolved_duplicates(self) -> Option<StepConstants> {
        let level = self.leaf_level();
        (self.compact_leaf() && self.deduplicated(level))
            .then(|| self.step(level, DEDUP_RESOLVE | COMPACT_LEAF))
    }

    pub fn upsweep(self, level: u32) -> StepConstants {
        let children = match self.compact_flag(level + 1) {
            0 if self.deduplicated(level + 1) => DEDUP_CHILDREN,
            compact => compact,
        };
        self.step(level, self.input_dedup(level) | children)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk of items four plies deep with a table: levels 0 and 1 expanded, level 2 counted
    /// by the leaf, level 1 and 2 deduplicated.
    #[test]
    fn a_node_count_writes_its_leaf_level_compact_and_resolves_its_duplicates() {
        let shape = ChunkShape::new(4, true);
        assert_eq!(shape.leaf_level(), 2);
        assert!(shape.compact_leaf());
        assert_eq!(shape.expand(1).flags, DEDUP_INPUT | COMPACT_LEAF);
        assert_eq!(shape.leaf().flags, COMPACT_LEAF);
        assert_eq!(
            shape.resolved_duplicates().map(|step| step.flags),
            Some(DEDUP_RESOLVE | COMPACT_LEAF)
        );
        assert_eq!(shape.upsweep(1).flags, DEDUP_INPUT | COMPACT_LEAF);
        assert_eq!(shape.upsweep(0).flags, DEDUP_CHILDREN);
    }

    /// The same chunk in a statistics run: its leaf level is boards like the others, the leaf
    /// skips its duplicates by their `children` entries and upsweep sums them.
    #[test]
    fn a_statistics_run_keeps_its_leaf_level_whole() {
        let shape = ChunkShape::new(4, true).counting_stats(true);
        assert!(!shape.compact_leaf());
        assert_eq!(shape.compact_flag(2), 0);
        assert_eq!(shape.expand(1).flags, DEDUP_INPUT | DEDUP_OUTPUT);
        assert_eq!(shape.leaf().flags, DEDUP_INPUT);
        assert_eq!(shape.leaf().remaining, 2);
        assert!(shape.resolved_duplicates().is_none());
        assert_eq!(shape.upsweep(1).flags, DEDUP_INPUT | DEDUP_CHILDREN);
        // Without a table nothing is deduplicated.
        let plain = ChunkShape::new(4, false).counting_stats(true);
        assert_eq!(plain.expand(1).flags, 0);
        assert_eq!(plain.leaf().flags, 0);
        assert_eq!(plain.upsweep(1).flags, 0);
    }
}
