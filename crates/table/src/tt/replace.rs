//! The replacement rule: which entry of a bucket a store overwrites. Shared by every mode and
//! mirrored by the GPU (`glsl/common/tt_store.glsl`, `tt_victim`).
//!
//! Depth-preferred, the shallowest entry yielding. A store of a key at `depth` remaining plies
//! takes, in order:
//! 1. the entry already holding the same key (refreshed in place, so one writer never holds a
//!    key twice);
//! 2. else the first empty entry;
//! 3. else the shallowest entry: a deeper subtree saves more work when it hits, so deeper
//!    entries survive as long as the bucket holds a shallower one. Among equally shallow
//!    entries the key picks one ([`tie_start`]: the scan starts at an entry chosen by hash bits
//!    the index does not use), so that entries of one depth replace each other at random
//!    instead of one entry churning while the others go stale.
//!
//! A new entry always gets in: a bucket full of deep entries still gives up its shallowest,
//! so deep entries of an earlier run (or of a finished subtree) age out, shallowest first.

/// What one entry of a bucket holds, relative to the key being stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    Empty,
    /// The key being stored.
    Same,
    /// Another key, at this remaining depth.
    Other(u32),
}

/// The entry the scan for the shallowest entry starts at, from the fast check of the key
/// (`hash.hi ^ hash.lo`): bits 32 and up, which the bucket index (the high bits of `hash.lo`
/// times the bucket count) does not decide alone.
#[inline]
pub fn tie_start(check: u64) -> u32 {
    (check >> 32) as u32
}

/// The index of the entry a store overwrites in a bucket holding `ways` (at least one entry;
/// a power of two); `start` from [`tie_start`].
#[inline]
pub fn victim(ways: &[Way], start: u32) -> usize {
    if let Some(same) = ways.iter().position(|&way| way == Way::Same) {
        return same;
    }
    if let Some(empty) = ways.iter().position(|&way| way == Way::Empty) {
        return empty;
    }
    let mask = ways.len() - 1;
    let mut shallowest = start as usize & mask;
    let mut shallowest_depth = u32::MAX;
    for step in 0..ways.len() {
        let index = (start as usize + step) & mask;
        if let Way::Other(depth) = ways[index] {
            if depth < shallowest_depth {
                shallowest = index;
                shallowest_depth = depth;
            }
        }
    }
    shallowest
}

#[cfg(test)]
mod tests {
    use super::*;
    use Way::{Empty, Other, Same};

    #[test]
    fn same_key_first_then_empty() {
        assert_eq!(victim(&[Other(5), Empty, Same, Other(2)], 0), 2);
        assert_eq!(victim(&[Other(5), Other(3), Empty, Empty], 3), 2);
        assert_eq!(victim(&[Empty, Empty, Empty, Empty], 1), 0);
        assert_eq!(victim(&[Other(5), Other(3), Other(4), Empty], 0), 3);
    }

    #[test]
    fn the_shallowest_entry_yields() {
        let full = [Other(6), Other(4), Other(5), Other(7)];
        for start in 0..8 {
            assert_eq!(victim(&full, start), 1);
        }
        // A bucket of deep entries still takes a new shallow one.
        assert_eq!(victim(&[Other(9), Other(8), Other(9), Other(9)], 0), 1);
    }

    #[test]
    fn ties_are_broken_by_the_key() {
        let tied = [Other(2), Other(2), Other(5), Other(2)];
        assert_eq!(victim(&tied, 0), 0);
        assert_eq!(victim(&tied, 1), 1);
        assert_eq!(victim(&tied, 2), 3);
        assert_eq!(victim(&tied, 3), 3);
        assert_eq!(victim(&tied, 4), 0);
        let all = [Other(3); 4];
        assert_eq!(
            (0..4).map(|s| victim(&all, s)).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn two_entry_buckets() {
        assert_eq!(victim(&[Other(5), Other(2)], 0), 1);
        assert_eq!(victim(&[Other(2), Other(2)], 1), 1);
        assert_eq!(victim(&[Other(5), Same], 0), 1);
        assert_eq!(victim(&[Other(5)], 7), 0);
    }
}
