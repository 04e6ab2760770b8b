//! Move-type statistics beside a table's entries, for runs with `--stats`.
//!
//! A table built with [`super::TtConfig::move_stats`] has a parallel array of [`StatsSlot`]s:
//! one per entry in `fast` and `verified`, two per entry in `certify` (at `2 * slot` the exact
//! writer's statistics, at `2 * slot + 1` those of the fast count it stored). Entry `way` of
//! bucket `b` is slot `b * ways + way`.
//!
//! Slot layout (`#[repr(C, align(16))]`, fourteen little-endian `u64` words, 112 bytes):
//!
//! | word | field   | value                                                             |
//! |------|---------|-------------------------------------------------------------------|
//! | 0-12 | `stats` | the counted columns in [`MoveStat::TALLIED`](crate::chess::MoveStat::TALLIED) order |
//! | 13   | `seal`  | `fast` only: [`seal`] of the entry's check, data word and stats    |
//!
//! Statistics never exceed the leaf count, so `u64` words hold them wherever a fast entry
//! holds the count (56 bits); a store whose statistics do not fit is not made (a payload skip).
//!
//! Consistency: `verified` and `certify` write and read their slots under the exact entry's
//! seqlock, with the entry. `fast` has no lock: a writer writes the statistics, then the seal,
//! then the entry; a reader that accepted an entry reads its slot and takes it only if the seal
//! matches the entry it accepted. A slot torn between two writers, or left by an earlier writer
//! of the entry, fails the seal (the mix is not linear: two stores' words do not combine into a
//! valid seal but by a 2^-64 chance) and the probe is a miss.

use crate::chess::{MoveStats, TALLIED_COUNT};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The statistics as a slot stores them.
pub type StatsWords = [u64; TALLIED_COUNT];

#[repr(C, align(16))]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct StatsSlot {
    stats: [AtomicU64; TALLIED_COUNT],
    seal: AtomicU64,
}

const _: () = assert!(TALLIED_COUNT == 13);
const _: () = assert!(size_of::<StatsSlot>() == 112);
const _: () = assert!(std::mem::offset_of!(StatsSlot, seal) == 104);

/// Bytes of statistics one entry of a `--stats` table carries beside it.
pub const fn stats_bytes_per_slot(certify: bool) -> usize {
    size_of::<StatsSlot>() * if certify { 2 } else { 1 }
}

/// The statistics as slot words; `None` if one does not fit 64 bits.
pub fn stats_words(stats: &MoveStats) -> Option<StatsWords> {
    let values = stats.values();
    let mut words = [0; TALLIED_COUNT];
    for (word, value) in words.iter_mut().zip(values) {
        *word = u64::try_from(value).ok()?;
    }
    Some(words)
}

pub fn stats_of_words(words: &StatsWords) -> MoveStats {
    MoveStats::from_values(words.map(u128::from))
}

/// The seal a `fast` slot stores: the entry's full check and data word mixed with every
/// statistic, a multiply and rotate per word so that words of two stores do not cancel.
pub fn seal(check: u64, data: u64, stats: &StatsWords) -> u64 {
    const MIX: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = check ^ data.rotate_left(32);
    for &word in stats {
        h = (h ^ word).wrapping_mul(MIX).rotate_left(27);
    }
    h
}

impl StatsSlot {
    /// Writes the statistics (under the entry's lock, or followed by the seal).
    #[inline]
    pub fn write(&self, stats: &StatsWords) {
        for (slot, &word) in self.stats.iter().zip(stats) {
            slot.store(word, Relaxed);
        }
    }

    #[inline]
    pub fn read(&self) -> StatsWords {
        self.stats.each_ref().map(|word| word.load(Relaxed))
    }

    /// `fast`: writes the statistics and the seal of the entry about to be written.
    #[inline]
    pub fn write_sealed(&self, check: u64, data: u64, stats: &StatsWords) {
        self.write(stats);
        self.seal.store(seal(check, data, stats), Relaxed);
    }

    /// `fast`: the statistics, if they belong to the entry read as `check` and `data`.
    #[inline]
    pub fn read_sealed(&self, check: u64, data: u64) -> Option<StatsWords> {
        let stats = self.read();
        (self.seal.load(Relaxed) == seal(check, data, &stats)).then_some(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_slot_belongs_to_its_entry_only() {
        let slot = StatsSlot::default();
        let stats: StatsWords = std::array::from_fn(|i| i as u64 * 3 + 1);
        slot.write_sealed(0xabc, 0x5_0003, &stats);
        assert_eq!(slot.read_sealed(0xabc, 0x5_0003), Some(stats));
        assert_eq!(slot.read_sealed(0xabd, 0x5_0003), None);
        assert_eq!(slot.read_sealed(0xabc, 0x6_0003), None);
        // Half of another store's words: the seal fails.
        let other: StatsWords = std::array::from_fn(|i| i as u64 * 5 + 2);
        for (word, &value) in slot.stats.iter().zip(&other).take(4) {
            word.store(value, Relaxed);
        }
        assert_eq!(slot.read_sealed(0xabc, 0x5_0003), None);
    }

    #[test]
    fn an_empty_slot_fails_the_seal_of_a_written_entry() {
        let slot = StatsSlot::default();
        assert_eq!(slot.read_sealed(0x1234, 0x1_0003), None);
    }

    #[test]
    fn statistics_past_64_bits_are_not_stored() {
        let mut stats = MoveStats::default();
        stats.tally(crate::chess::MoveStat::DirectChecks, 7);
        assert_eq!(stats_of_words(&stats_words(&stats).unwrap()), stats);
        stats.tally(crate::chess::MoveStat::Captures, 1 << 64);
        assert_eq!(stats_words(&stats), None);
    }
}
