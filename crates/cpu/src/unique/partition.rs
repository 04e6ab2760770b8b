//! Which partition a position belongs to: its
//! [placement hash](crate::chess::specialized::placement_hash), a fixed 64-bit hash of its
//! pieces (the same on every machine and in every version of this format) that the expansion
//! computes for a child from its parent's before it makes the child, cut into ranges. A partition is a
//! range of hash values, so a partition that does not fit in memory splits into two halves and
//! a resumed ply fills only the ranges it lacks, whatever partitions it was started with.

use std::fmt;

/// The whole hash space, `2^64` values.
pub const HASH_SPACE: u128 = 1 << 64;

/// The hash values `start..end` (`end <= 2^64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HashRange {
    pub start: u128,
    pub end: u128,
}

impl HashRange {
    pub const ALL: HashRange = HashRange {
        start: 0,
        end: HASH_SPACE,
    };

    /// Partition `index` of `count` equal ranges.
    pub fn nth_of(index: u64, count: u64) -> HashRange {
        let at = |i: u64| HASH_SPACE * u128::from(i) / u128::from(count);
        HashRange {
            start: at(index),
            end: at(index + 1),
        }
    }

    #[inline(always)]
    pub fn contains(self, hash: u64) -> bool {
        (self.start..self.end).contains(&u128::from(hash))
    }

    pub fn len(self) -> u128 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start >= self.end
    }

    /// The two halves; `None` for a range too small to split.
    pub fn halves(self) -> Option<(HashRange, HashRange)> {
        let middle = self.start + self.len() / 2;
        (self.len() >= 2).then_some((
            HashRange {
                start: self.start,
                end: middle,
            },
            HashRange {
                start: middle,
                end: self.end,
            },
        ))
    }

    /// Its share of the hash space.
    pub fn share(self) -> f64 {
        self.len() as f64 / HASH_SPACE as f64
    }

    /// The part of `self` no range of `done` covers, as ranges in order (`done` sorted and
    /// disjoint).
    pub fn gaps(self, done: &[HashRange]) -> Vec<HashRange> {
        let mut gaps = Vec::new();
        let mut at = self.start;
        for range in done {
            if range.end <= at || range.start >= self.end {
                continue;
            }
            if range.start > at {
                gaps.push(HashRange {
                    start: at,
                    end: range.start,
                });
            }
            at = at.max(range.end);
        }
        if at < self.end {
            gaps.push(HashRange {
                start: at,
                end: self.end,
            });
        }
        gaps
    }

    /// The file-name form: start and end in hex, 17 digits each (the end may be `2^64`).
    pub fn name(self) -> String {
        format!("{:017x}-{:017x}", self.start, self.end)
    }

    pub fn parse_name(text: &str) -> Option<HashRange> {
        let (start, end) = text.split_once('-')?;
        let number = |s: &str| {
            (s.len() == 17)
                .then(|| u128::from_str_radix(s, 16).ok())
                .flatten()
        };
        let range = HashRange {
            start: number(start)?,
            end: number(end)?,
        };
        (range.end <= HASH_SPACE && !range.is_empty()).then_some(range)
    }
}

impl fmt::Display for HashRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.4}..{:.4}",
            self.start as f64 / HASH_SPACE as f64,
            self.end as f64 / HASH_SPACE as f64
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_space_and_fill_gaps() {
        for count in [1, 3, 7, 64] {
            let ranges: Vec<HashRange> = (0..count).map(|i| HashRange::nth_of(i, count)).collect();
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges[count as usize - 1].end, HASH_SPACE);
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
            assert!(HashRange::ALL.gaps(&ranges).is_empty());
            assert_eq!(HashRange::ALL.gaps(&ranges[1..]), [ranges[0]]);
            for range in &ranges {
                assert_eq!(HashRange::parse_name(&range.name()), Some(*range));
            }
        }
        let (low, high) = HashRange::ALL.halves().expect("splits");
        assert!(low.contains(0) && !low.contains(1 << 63) && high.contains(u64::MAX));
        assert_eq!(HashRange::ALL.gaps(&[high]), [low]);
        assert_eq!(HashRange::parse_name("0-1"), None);
    }

    /// The hash spreads the keys of a ply evenly: each of 16 partitions holds its share of
    /// the 5,362 positions of ply 3 within a few standard deviations.
    #[test]
    fn the_hash_spreads_a_ply_evenly() {
        use crate::chess::movegen::legal_moves;
        use crate::chess::specialized::placement_hash;
        use crate::chess::{NybbleBoard, Position};
        let mut keys = std::collections::HashSet::new();
        let mut ply = vec![Position::startpos()];
        for _ in 0..3 {
            ply = ply
                .iter()
                .flat_map(|p| {
                    legal_moves(p)
                        .iter()
                        .map(|&m| p.play(m))
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        for pos in &ply {
            keys.insert(NybbleBoard::from_position(pos).planes);
        }
        assert_eq!(keys.len(), 5_362);
        let mut counts = [0u32; 16];
        for planes in &keys {
            counts[(placement_hash(&NybbleBoard { planes: *planes }) >> 60) as usize] += 1;
        }
        // 335 expected, standard deviation about 18.
        assert!(
            counts.iter().all(|&c| (260..=410).contains(&c)),
            "{counts:?}"
        );
    }
}
