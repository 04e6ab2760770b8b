//! How large a table one search can use: a table search stores at most one entry per node
//! with [`MIN_TT_DEPTH`] or more plies left, so a search of `pos` to `depth` stores at most
//! Σ perft(ply) over the plies 0 to `depth - MIN_TT_DEPTH`. A table twice that size holds every
//! entry it could store; more memory is never probed twice and only costs its first writes
//! (the kernel zeroes each page, and a virtual machine's host backs it: about 2 s for 1 GiB
//! on the build VM, more than the whole of Kiwipete perft 6). Counting those plies costs
//! little: it stops as soon as the sum could pass what the budget holds, or
//! [`MAX_SIZING_NODES`].

use crate::chess::{specialized, Position};
use crate::tt::MIN_TT_DEPTH;

/// The most nodes the sizing counts (about 50 ms on one core): beyond it the search is large
/// enough that its whole budget is worth having.
const MAX_SIZING_NODES: u128 = 1 << 26;

/// Slots per position the search can store: half the table stays free, so that collisions
/// between the entries the search makes are rare.
pub const SLOTS_PER_STORED_POSITION: u128 = 2;

/// The most entries a table search of `pos` to `depth` can store, if fewer than
/// `budget_slots / SLOTS_PER_STORED_POSITION`; `None` when the search may fill the budget.
pub fn stores_at_most(pos: &Position, depth: u32, budget_slots: u128) -> Option<u128> {
    let limit = budget_slots / SLOTS_PER_STORED_POSITION;
    let mut sum: u128 = 0;
    let (mut before_last, mut last): (u128, u128) = (0, 0);
    for ply in 0..=depth.saturating_sub(MIN_TT_DEPTH) {
        // Each ply's count predicted from the two before it, so that a count that would
        // exceed the limit (or the sizing's effort) is not made.
        if ply >= 2 {
            let predicted = last.saturating_mul(last) / before_last.max(1);
            if sum + predicted > limit || predicted > MAX_SIZING_NODES {
                return None;
            }
        }
        let count = specialized::perft(pos, ply);
        sum += count;
        if sum > limit {
            return None;
        }
        (before_last, last) = (last, count);
    }
    Some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn kiwipete() -> Position {
        specialized::init();
        Position::from_fen(KIWIPETE).expect("Kiwipete")
    }

    /// Kiwipete perft 6 stores at most 1 + 48 + 2,039 + 97,862 + 4,085,603 positions (the nodes
    /// at plies 0 to 4).
    #[test]
    fn the_nodes_with_two_plies_or_more_left() {
        let sum = 1 + 48 + 2_039 + 97_862 + 4_085_603;
        assert_eq!(stores_at_most(&kiwipete(), 6, 1 << 26), Some(sum));
        assert_eq!(stores_at_most(&kiwipete(), 2, 1 << 26), Some(1));
        assert_eq!(stores_at_most(&kiwipete(), 0, 1 << 26), Some(1));
    }

    /// A budget the search may fill is kept whole, and the count stops before it would pass
    /// the budget (perft 6 of Kiwipete's 8 G nodes would take seconds). The prediction from
    /// the plies before (here 4.70 M at ply 4 for 4.09 M) may keep a budget just large enough.
    #[test]
    fn a_search_that_may_fill_the_budget_keeps_it() {
        assert_eq!(stores_at_most(&kiwipete(), 6, 2 * 4_185_553 - 1), None);
        assert_eq!(stores_at_most(&kiwipete(), 6, 2 * 4_185_553), None);
        assert_eq!(
            stores_at_most(&kiwipete(), 6, 2 * 4_800_000),
            Some(4_185_553)
        );
        assert_eq!(stores_at_most(&kiwipete(), 8, 1 << 26), None);
        assert_eq!(stores_at_most(&kiwipete(), 30, u128::MAX / 4), None);
    }
}
