//! The stages of one chunk, level by level: which levels are expanded and deduplicated, which
//! the leaf counts, and the push constants of each stage, written once as the chunk's
//! [`ChunkShape::program`], which both executors interpret (the device runner's
//! `runner/chunk.rs` and the CPU twin's `twin/executor.rs`), whole or in parts.

use crate::backend::MAX_DEPTH;
use crate::gpu::layouts::StepConstants;
use crate::gpu::shader_layout::{
    COMPACT_LEAF, DEDUP_CHILDREN, DEDUP_CLEAR, DEDUP_INPUT, DEDUP_OUTPUT, DEDUP_RESOLVE, MAX_LEVELS,
};
use crate::tt::MIN_TT_DEPTH;

// A chunk of items r plies deep (r at most the depth of a job) has r - 1 levels.
const _: () = assert!(MAX_DEPTH <= MAX_LEVELS + 1);

/// What a step of a chunk's program runs. Each runs over the positions of its step's level:
/// dispatched indirectly from the level's size on the device when the chunk goes whole, in
/// parts the host sizes from the level's size read back when it goes in parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageOp {
    /// Clears the level's dedup set (the step with [`DEDUP_CLEAR`], [`ChunkStep::clear`]),
    /// then marks each position that an equal one claimed first (`dedup.comp`).
    Dedup,
    /// Appends the level's children after it (`expand.comp`), then `next_level.comp` records
    /// where the appended level is and how large (one invocation).
    Expand,
    /// Counts the last two plies below the level (`leaf.comp`).
    Leaf,
    /// Adds each duplicate of a compact leaf level into its own parent (`dedup.comp` with
    /// `DEDUP_RESOLVE`).
    ResolveDuplicates,
    /// Sums the level's children into it (`upsweep.comp`).
    Upsweep,
}

/// One step of a chunk's program: what runs, with which push constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkStep {
    pub op: StageOp,
    pub step: StepConstants,
}

impl ChunkStep {
    /// The push constants that clear a dedup step's set.
    pub fn clear(self) -> StepConstants {
        StepConstants {
            flags: self.step.flags | DEDUP_CLEAR,
            ..self.step
        }
    }

    /// The push constants of the `next_level` dispatch after an expand step.
    pub fn next_level(self) -> StepConstants {
        StepConstants {
            flags: 0,
            ..self.step
        }
    }
}

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

    /// The chunk's stages in the order they run: each level down to the leaf level
    /// deduplicated (if it is) and expanded, the leaf, the compact leaf level's duplicates
    /// resolved (if any), and upsweep back to the items.
    pub fn program(self) -> Vec<ChunkStep> {
        let mut program = Vec::new();
        let mut push = |op, step| program.push(ChunkStep { op, step });
        let leaf_level = self.leaf_level();
        for level in 0..=leaf_level {
            if self.deduplicated(level) {
                push(StageOp::Dedup, self.dedup(level));
            }
            if level < leaf_level {
                push(StageOp::Expand, self.expand(level));
            }
        }
        push(StageOp::Leaf, self.leaf());
        if let Some(resolve) = self.resolved_duplicates() {
            push(StageOp::ResolveDuplicates, resolve);
        }
        for level in (0..leaf_level).rev() {
            push(StageOp::Upsweep, self.upsweep(level));
        }
        program
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
    fn compact_flag(self, level: u32) -> u32 {
        if self.compact_leaf() && level == self.leaf_level() {
            COMPACT_LEAF
        } else {
            0
        }
    }

    /// Plies below the positions of `level`.
    fn level_remaining(self, level: u32) -> u32 {
        self.remaining - level
    }

    /// With a table, every level but the chunk's own (whose counts go back to the host) is
    /// deduplicated before it is searched.
    pub fn deduplicated(self, level: u32) -> bool {
        self.with_table && level > 0 && self.level_remaining(level) >= MIN_TT_DEPTH
    }

    fn input_dedup(self, level: u32) -> u32 {
        if self.deduplicated(level) {
            DEDUP_INPUT
        } else {
            0
        }
    }

    fn step(self, level: u32, flags: u32) -> StepConstants {
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
    fn expand(self, level: u32) -> StepConstants {
        let output = match self.compact_flag(level + 1) {
            0 if self.deduplicated(level + 1) => DEDUP_OUTPUT,
            compact => compact,
        };
        self.step(level, self.input_dedup(level) | output)
    }

    /// Dedup of `level`: its positions inserted ([`ChunkStep::clear`] clears the set).
    fn dedup(self, level: u32) -> StepConstants {
        self.step(level, self.compact_flag(level))
    }

    /// The leaf skips a compact level's duplicates by their entries, and those of a leaf
    /// level that is not compact by their `children` entries, as expand does (the chunk's own
    /// level is never deduplicated).
    fn leaf(self) -> StepConstants {
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
    fn resolved_duplicates(self) -> Option<StepConstants> {
        let level = self.leaf_level();
        (self.compact_leaf() && self.deduplicated(level))
            .then(|| self.step(level, DEDUP_RESOLVE | COMPACT_LEAF))
    }

    fn upsweep(self, level: u32) -> StepConstants {
        let children = match self.compact_flag(level + 1) {
            0 if self.deduplicated(level + 1) => DEDUP_CHILDREN,
            compact => compact,
        };
        self.step(level, self.input_dedup(level) | children)
    }
}

#[cfg(test)]
mod tests {
    use super::StageOp::{Dedup, Expand, Leaf, ResolveDuplicates, Upsweep};
    use super::*;

    /// The program as (op, level, remaining, flags), steps in order.
    fn steps(shape: ChunkShape) -> Vec<(StageOp, u32, u32, u32)> {
        let program = shape.program();
        for step in &program {
            assert_eq!(step.step.first_invocation, 0, "parts are the executor's");
        }
        program
            .into_iter()
            .map(|ChunkStep { op, step }| (op, step.level, step.remaining, step.flags))
            .collect()
    }

    /// A chunk of items four plies deep with a table: levels 0 and 1 expanded, level 2 counted
    /// by the leaf as compact leaf entries, levels 1 and 2 deduplicated before they are
    /// searched, the leaf level's duplicates resolved into their parents.
    #[test]
    fn a_node_count_with_a_table_deduplicates_and_resolves_its_compact_leaf_level() {
        let shape = ChunkShape::new(4, true);
        assert_eq!(shape.leaf_level(), 2);
        assert!(shape.compact_leaf());
        assert_eq!(
            steps(shape),
            [
                (Expand, 0, 4, DEDUP_OUTPUT),
                (Dedup, 1, 3, 0),
                (Expand, 1, 3, DEDUP_INPUT | COMPACT_LEAF),
                (Dedup, 2, 2, COMPACT_LEAF),
                (Leaf, 2, 2, COMPACT_LEAF),
                (ResolveDuplicates, 2, 2, DEDUP_RESOLVE | COMPACT_LEAF),
                (Upsweep, 1, 3, DEDUP_INPUT | COMPACT_LEAF),
                (Upsweep, 0, 4, DEDUP_CHILDREN),
            ]
        );
        let dedup = shape.program()[1];
        assert_eq!(dedup.clear().flags, DEDUP_CLEAR);
        assert_eq!(shape.program()[0].next_level().flags, 0);
    }

    /// Without a table nothing is deduplicated: expand, leaf and upsweep only.
    #[test]
    fn a_node_count_without_a_table_expands_counts_and_sums() {
        assert_eq!(
            steps(ChunkShape::new(4, false)),
            [
                (Expand, 0, 4, 0),
                (Expand, 1, 3, COMPACT_LEAF),
                (Leaf, 2, 2, COMPACT_LEAF),
                (Upsweep, 1, 3, COMPACT_LEAF),
                (Upsweep, 0, 4, 0),
            ]
        );
    }

    /// Items one or two plies deep are the leaf level themselves: the leaf alone, never
    /// compact, never deduplicated (their counts go back to the host).
    #[test]
    fn shallow_items_are_counted_by_the_leaf_alone() {
        for with_table in [false, true] {
            for remaining in [1, 2] {
                let shape = ChunkShape::new(remaining, with_table);
                assert!(!shape.compact_leaf());
                assert_eq!(steps(shape), [(Leaf, 0, remaining, 0)]);
            }
        }
    }

    /// A statistics run keeps its leaf level as boards like the others: the leaf skips its
    /// duplicates by their `children` entries, upsweep sums them, nothing is resolved.
    #[test]
    fn a_statistics_run_keeps_its_leaf_level_whole() {
        let shape = ChunkShape::new(4, true).counting_stats(true);
        assert!(!shape.compact_leaf());
        assert_eq!(
            steps(shape),
            [
                (Expand, 0, 4, DEDUP_OUTPUT),
                (Dedup, 1, 3, 0),
                (Expand, 1, 3, DEDUP_INPUT | DEDUP_OUTPUT),
                (Dedup, 2, 2, 0),
                (Leaf, 2, 2, DEDUP_INPUT),
                (Upsweep, 1, 3, DEDUP_INPUT | DEDUP_CHILDREN),
                (Upsweep, 0, 4, DEDUP_CHILDREN),
            ]
        );
        assert_eq!(
            steps(ChunkShape::new(4, false).counting_stats(true)),
            [
                (Expand, 0, 4, 0),
                (Expand, 1, 3, 0),
                (Leaf, 2, 2, 0),
                (Upsweep, 1, 3, 0),
                (Upsweep, 0, 4, 0),
            ]
        );
    }
}
