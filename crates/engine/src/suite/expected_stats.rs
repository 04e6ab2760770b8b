//! The move-type statistics a suite line publishes at one depth (`;D3.captures 34`), and how
//! each compares with the statistics vkperft counted.

use crate::chess::{MoveStat, MoveStats};

/// Columns of [`MoveStat`] and their published values, in the order the line gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedStats(Vec<(MoveStat, u128)>);

impl ExpectedStats {
    /// Adds `stat`'s value; `Err` if the line already gives that column at this depth.
    pub fn add(&mut self, stat: MoveStat, value: u128) -> Result<(), MoveStat> {
        if self.0.iter().any(|(known, _)| *known == stat) {
            return Err(stat);
        }
        self.0.push((stat, value));
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The columns and their values, in the line's order.
    pub fn iter(&self) -> impl Iterator<Item = (MoveStat, u128)> + '_ {
        self.0.iter().copied()
    }

    /// Each column compared with what a search counted.
    pub fn compare(&self, counted: &MoveStats) -> Vec<StatCheck> {
        self.iter()
            .map(|(stat, expected)| StatCheck {
                stat,
                expected,
                got: counted.get(stat),
            })
            .collect()
    }
}

/// One column of one depth: the value the file gives and the one vkperft counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatCheck {
    pub stat: MoveStat,
    pub expected: u128,
    pub got: u128,
}

impl StatCheck {
    pub fn agrees(&self) -> bool {
        self.expected == self.got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_is_compared_by_its_own_value_and_a_repeat_is_refused() {
        let mut expected = ExpectedStats::default();
        expected.add(MoveStat::Checks, 3).expect("new");
        expected.add(MoveStat::Captures, 2).expect("new");
        assert_eq!(expected.add(MoveStat::Checks, 3), Err(MoveStat::Checks));
        let mut counted = MoveStats::default();
        counted.tally(MoveStat::Captures, 2);
        counted.tally(MoveStat::DirectChecks, 2);
        counted.tally(MoveStat::DirectMates, 1);
        let checks = expected.compare(&counted);
        assert_eq!(
            checks
                .iter()
                .map(|c| (c.stat, c.got, c.agrees()))
                .collect::<Vec<_>>(),
            [(MoveStat::Checks, 3, true), (MoveStat::Captures, 2, true)]
        );
        counted.tally(MoveStat::Captures, 1);
        assert!(!expected.compare(&counted)[1].agrees());
    }
}
