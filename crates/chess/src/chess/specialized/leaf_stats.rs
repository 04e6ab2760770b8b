//! The totals a statistics perft adds up below a node: its leaves and the move-type statistics
//! of their last moves, in `u64`s like the plain count (a subtree of at most
//! [`MAX_U64_DEPTH`](super::MAX_U64_DEPTH) plies fits).

use crate::chess::move_stat::{CheckKind, MoveStat};
use crate::chess::move_stats::MoveStats;
use std::ops::AddAssign;

/// Leaves and the statistics of their last moves, as [`MoveStat`] defines them. Checks are
/// counted by kind with the mates among them, and the mates apart: a check is counted when the
/// move is classified, before a search for a reply can tell whether it mates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeafStats {
    pub nodes: u64,
    pub captures: u64,
    pub en_passant: u64,
    pub castles: u64,
    pub promotions: u64,
    /// Checks by [`CheckKind`], mates included.
    pub checks: [u64; 4],
    /// Mates by [`CheckKind`].
    pub mates: [u64; 4],
    pub stalemates: u64,
}

impl LeafStats {
    pub fn into_totals(self) -> (u128, MoveStats) {
        let mut stats = MoveStats::default();
        stats.tally(MoveStat::Captures, self.captures.into());
        stats.tally(MoveStat::EnPassants, self.en_passant.into());
        stats.tally(MoveStat::Castles, self.castles.into());
        stats.tally(MoveStat::Promotions, self.promotions.into());
        stats.tally(MoveStat::Stalemates, self.stalemates.into());
        for kind in [
            CheckKind::Direct,
            CheckKind::SingleDiscovered,
            CheckKind::DirectDiscovered,
            CheckKind::DoubleDiscovered,
        ] {
            let (checks, mates) = (self.checks[kind as usize], self.mates[kind as usize]);
            stats.tally(kind.checks(), (checks - mates).into());
            stats.tally(kind.mates(), mates.into());
        }
        (self.nodes.into(), stats)
    }
}

impl LeafStats {
    /// Adds `times` subtrees with the totals of `subtree`.
    #[inline(always)]
    pub fn add_times(&mut self, subtree: LeafStats, times: u64) {
        self.nodes += subtree.nodes * times;
        self.captures += subtree.captures * times;
        self.en_passant += subtree.en_passant * times;
        self.castles += subtree.castles * times;
        self.promotions += subtree.promotions * times;
        for kind in 0..4 {
            self.checks[kind] += subtree.checks[kind] * times;
            self.mates[kind] += subtree.mates[kind] * times;
        }
        self.stalemates += subtree.stalemates * times;
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
        for kind in 0..4 {
            self.checks[kind] += rhs.checks[kind];
            self.mates[kind] += rhs.mates[kind];
        }
        self.stalemates += rhs.stalemates;
    }
}
