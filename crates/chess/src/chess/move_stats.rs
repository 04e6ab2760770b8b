//! Move-type statistics of a perft: what the last move of each counted line was, one count per
//! column [`MoveStat`] defines.

use super::castling::CastlingSquares;
use super::move_stat::{CheckKind, MoveStat, TALLIED_COUNT};
use super::movegen::count_legal;
use super::moves::{Move, MoveKind};
use super::position::Position;
use std::ops::{Add, AddAssign};

/// Counts of the last moves of a perft's lines by type: the columns of [`MoveStat::TALLIED`],
/// from which the others are summed. 128-bit, like the leaf counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveStats([u128; TALLIED_COUNT]);

impl MoveStats {
    /// The counted columns in the order of [`MoveStat::TALLIED`].
    pub const fn values(&self) -> [u128; TALLIED_COUNT] {
        self.0
    }

    /// The statistics from counts in the order of [`MoveStat::TALLIED`].
    pub const fn from_values(values: [u128; TALLIED_COUNT]) -> MoveStats {
        MoveStats(values)
    }

    /// The value of column `stat`.
    pub fn get(&self, stat: MoveStat) -> u128 {
        if let Some(i) = stat.tallied_index() {
            return self.0[i];
        }
        let sum = |stats: &[MoveStat]| stats.iter().map(|&s| self.get(s)).sum::<u128>();
        match stat {
            MoveStat::TotalChecks => sum(&[
                MoveStat::DirectChecks,
                MoveStat::SingleDiscoveredChecks,
                MoveStat::DirectDiscoveredChecks,
                MoveStat::DoubleDiscoveredChecks,
            ]),
            MoveStat::TotalMates | MoveStat::Checkmates => sum(&[
                MoveStat::DirectMates,
                MoveStat::SingleDiscoveredMates,
                MoveStat::DirectDiscoveredMates,
                MoveStat::DoubleDiscoveredMates,
            ]),
            MoveStat::EnPassant => self.get(MoveStat::EnPassants),
            MoveStat::Checks => sum(&[MoveStat::TotalChecks, MoveStat::TotalMates]),
            MoveStat::DiscoveredChecks => self.get(MoveStat::SingleDiscoveredChecks),
            MoveStat::DoubleChecks => sum(&[
                MoveStat::DirectDiscoveredChecks,
                MoveStat::DoubleDiscoveredChecks,
            ]),
            _ => unreachable!("{stat:?} is counted"),
        }
    }

    /// Adds `count` to counted column `stat`.
    pub fn tally(&mut self, stat: MoveStat, count: u128) {
        let i = stat
            .tallied_index()
            .unwrap_or_else(|| panic!("{stat:?} is a sum, not counted"));
        self.0[i] += count;
    }

    /// The statistics of `paths` subtrees like this one.
    pub fn times(self, paths: u128) -> MoveStats {
        MoveStats(self.0.map(|v| v * paths))
    }

    /// The statistics of the one line that ends with `m` played in `pos` (the reference
    /// classification: it plays the move and counts the checkers and the replies).
    pub fn of_move(pos: &Position, m: Move) -> MoveStats {
        let child = pos.play(m);
        let kind = m.kind();
        let moved_to = match kind {
            MoveKind::Castle => CastlingSquares::new(m.from(), m.to()).rook_to,
            _ => m.to(),
        };
        let checkers = child.checkers();
        let no_reply = count_legal(&child) == 0;
        let mut stats = MoveStats::default();
        if kind == MoveKind::EnPassant
            || (kind != MoveKind::Castle && pos.piece_at(m.to()).is_some())
        {
            stats.tally(MoveStat::Captures, 1);
        }
        if kind == MoveKind::EnPassant {
            stats.tally(MoveStat::EnPassants, 1);
        }
        if kind == MoveKind::Castle {
            stats.tally(MoveStat::Castles, 1);
        }
        if kind.promotion().is_some() {
            stats.tally(MoveStat::Promotions, 1);
        }
        if checkers.any() {
            let check = CheckKind::of(checkers.more_than_one(), checkers.contains(moved_to));
            stats.tally(
                if no_reply {
                    check.mates()
                } else {
                    check.checks()
                },
                1,
            );
        } else if no_reply {
            stats.tally(MoveStat::Stalemates, 1);
        }
        stats
    }
}

impl Add for MoveStats {
    type Output = MoveStats;
    fn add(self, rhs: MoveStats) -> MoveStats {
        MoveStats(std::array::from_fn(|i| self.0[i] + rhs.0[i]))
    }
}

impl AddAssign for MoveStats {
    fn add_assign(&mut self, rhs: MoveStats) {
        *self = *self + rhs;
    }
}

impl std::iter::Sum for MoveStats {
    fn sum<I: Iterator<Item = MoveStats>>(iter: I) -> MoveStats {
        iter.fold(MoveStats::default(), Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wiki_columns_are_sums_of_the_grand_chess_trees() {
        let stats = MoveStats::from_values(std::array::from_fn(|i| 1 << i));
        let get = |stat| stats.get(stat);
        assert_eq!(get(MoveStat::EnPassant), get(MoveStat::EnPassants));
        assert_eq!(get(MoveStat::TotalChecks), 0b1111 << 4);
        assert_eq!(get(MoveStat::TotalMates), 0b1111 << 8);
        assert_eq!(get(MoveStat::Checkmates), get(MoveStat::TotalMates));
        assert_eq!(get(MoveStat::Checks), 0b1111_1111 << 4);
        assert_eq!(get(MoveStat::DiscoveredChecks), 1 << 5);
        assert_eq!(get(MoveStat::DoubleChecks), 0b11 << 6);
        assert_eq!(get(MoveStat::Stalemates), 1 << 12);
    }

    #[test]
    fn every_column_has_its_own_key_and_the_counted_ones_come_first_in_order() {
        let keys: std::collections::BTreeSet<_> = MoveStat::ALL.iter().map(|s| s.key()).collect();
        assert_eq!(keys.len(), MoveStat::ALL.len());
        for (i, stat) in MoveStat::TALLIED.into_iter().enumerate() {
            assert_eq!(stat.tallied_index(), Some(i));
            assert_eq!(MoveStat::from_key(stat.key()), Some(stat));
        }
    }
}
