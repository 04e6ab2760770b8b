//! Which slots, and how many verifier bits, each remaining depth of a table has: one table for
//! every depth, or (the GPU's split fast table, [`super::split`]) compact slots of depth 2's own
//! beside the slots of every deeper depth.

use super::compact::{compact_verifier_bits, COMPACT_DEPTH};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableShape {
    /// Slots of every depth without slots of its own.
    pub slots: u64,
    /// Compact slots of depth 2 alone; 0 when depth 2 shares `slots`.
    pub compact_slots: u64,
    /// The verifier width of the shared slots.
    pub verifier_bits: u32,
}

impl TableShape {
    /// One table of `slots` slots for every depth.
    pub fn shared(slots: u64, verifier_bits: u32) -> TableShape {
        TableShape {
            slots,
            compact_slots: 0,
            verifier_bits,
        }
    }

    fn is_compact(&self, depth: u32) -> bool {
        depth == COMPACT_DEPTH && self.compact_slots != 0
    }

    /// The verifier bits a probe at `depth` compares.
    pub fn verifier_bits_of(&self, depth: u32) -> u32 {
        if self.is_compact(depth) {
            compact_verifier_bits(self.verifier_bits)
        } else {
            self.verifier_bits
        }
    }

    /// Slots of the whole table.
    pub fn total_slots(&self) -> u64 {
        self.slots.saturating_add(self.compact_slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_two_has_its_own_width_when_compact() {
        let shared = TableShape::shared(100, 64);
        assert_eq!(shared.verifier_bits_of(2), 64);
        let split = TableShape {
            slots: 100,
            compact_slots: 400,
            verifier_bits: 64,
        };
        assert_eq!(split.verifier_bits_of(2), 48);
        assert_eq!(split.verifier_bits_of(3), 64);
        assert_eq!(split.total_slots(), 500);
        let narrow = TableShape {
            verifier_bits: 8,
            ..split
        };
        assert_eq!(narrow.verifier_bits_of(2), 8);
    }
}
