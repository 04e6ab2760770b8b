//! The totals a statistics perft adds up below a node: its leaves and the move-type statistics
//! of their last moves, in `u64`s like the plain count (a subtree of at most
//! [`MAX_U64_DEPTH`](super::MAX_U64_DEPTH) plies fits).

use crate::chess::move_stats::MoveStats;
use std::ops::AddAssign;

/// Leaves and the statistics of their last moves, as [`MoveStats`] defines them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeafStats {
    pub nodes: u64,
    pub captures: u64,
    pub en_passant: u64,
    pub castles: u64,
    pub promotions: u64,
    pub checks: u64,
    pub discovered_checks: u64,
    pub double_checks: u64,
    pub checkmates: u64,
    pub stalemates: u64,
}

impl LeafStats {
    pub fn into_totals(self) -> (u128, MoveStats) {
        let stats = MoveStats {
            captures: self.captures.into(),
            en_passant: self.en_passant.into(),
            castles: self.castles.into(),
            promotions: self.promotions.into(),
            checks: self.checks.into(),
            discovered_checks: self.discovered_checks.into(),
            double_checks: self.double_checks.into(),
            checkmates: self.checkmates.into(),
            stalemates: self.stalemates.into(),
        };
        (self.nodes.into(), stats)
    }
}

impl AddAssign for LeafStats {
    #[inline(always)]
    fn add_assign(&mut self, rhs: LeafStats) {
        self.nodes += rhs.nodes;
        self.captures += rhs.captures;
        self.en_passant += rhs.en_passant;
        self.castles += rhs.castles;
        self.promotions += rhs.promotions;
        self.checks += rhs.checks;
        self.discovered_checks += rhs.discovered_checks;
        self.double_checks += rhs.double_checks;
        self.checkmates += rhs.checkmates;
        self.stalemates += rhs.stalemates;
    }
}
