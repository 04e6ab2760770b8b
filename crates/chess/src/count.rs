//! Subtree counts as every backend returns them.

use crate::chess::MoveStats;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// Leaf count of a subtree, and what a `fast` transposition table would have answered for it.
///
/// The two differ only in `certify` mode, where false hits of the fast table are caught: `nodes`
/// is then the exact count and `fast_nodes` the count the fast table alone would have produced.
/// In every other mode they are equal. Counts are 128-bit: perft(14) already exceeds 2^64.
///
/// `stats` and `fast_stats` are the move-type statistics of the subtree's lines (exact, and as
/// the fast table would have them), counted only by runs that ask for them (`--stats`); zero
/// otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub nodes: u128,
    pub fast_nodes: u128,
    pub stats: MoveStats,
    pub fast_stats: MoveStats,
}

impl Counts {
    #[inline]
    pub fn exact(nodes: u128) -> Counts {
        Counts {
            nodes,
            fast_nodes: nodes,
            ..Counts::default()
        }
    }

    /// Exact counts with their statistics.
    #[inline]
    pub fn with_stats(nodes: u128, stats: MoveStats) -> Counts {
        Counts {
            nodes,
            fast_nodes: nodes,
            stats,
            fast_stats: stats,
        }
    }

    /// The counts of `paths` subtrees like this one.
    #[inline]
    pub fn times(self, paths: u128) -> Counts {
        Counts {
            nodes: self.nodes * paths,
            fast_nodes: self.fast_nodes * paths,
            stats: self.stats.times(paths),
            fast_stats: self.fast_stats.times(paths),
        }
    }
}

impl Add for Counts {
    type Output = Counts;
    #[inline]
    fn add(self, rhs: Counts) -> Counts {
        Counts {
            nodes: self.nodes + rhs.nodes,
            fast_nodes: self.fast_nodes + rhs.fast_nodes,
            stats: self.stats + rhs.stats,
            fast_stats: self.fast_stats + rhs.fast_stats,
        }
    }
}

impl AddAssign for Counts {
    #[inline]
    fn add_assign(&mut self, rhs: Counts) {
        *self = *self + rhs;
    }
}

impl Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(iter: I) -> Counts {
        iter.fold(Counts::default(), Add::add)
    }
}

/// `1234567` -> `1,234,567`: how counts are shown to people.
pub fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(119060324), "119,060,324");
    }
}
