//! The compact entry: 8 bytes, for remaining depth 2 only, four to a 32-byte bucket (one
//! memory sector of a GPU). The GPU backend's fast table keeps depth 2 in buckets of these when
//! its memory is split by depth ([`super::split`]); this file is the Rust twin of the compact
//! probe and store (`glsl/common/tt_probe.glsl`, `glsl/common/tt_store.glsl`), used by the GPU's
//! probe self-test and the tests.
//!
//! Entry layout (one little-endian `u64`, read and written as one atomic word):
//!
//! | bits  | field   | value                                             |
//! |-------|---------|---------------------------------------------------|
//! | 0-15  | count   | perft(2) of the position + 1 (0 = empty entry)    |
//! | 16-63 | check   | bits 16-63 of `hash.hi`                           |
//!
//! Bucket layout (`#[repr(C, align(32))]`): entries 0-3 at offsets 0, 8, 16, 24.
//!
//! The bucket index comes from `hash.lo` (multiply-high onto the compact buckets) and the
//! check from `hash.hi`: the check bits are disjoint from the index bits, so all
//! [`COMPACT_CHECK_BITS`] of them tell positions of one bucket apart. `--verifier-bits`
//! narrows the check to at most that many low bits. Every entry of this table holds depth 2,
//! so the remaining depth is not stored. A count of [`MAX_COMPACT_COUNT`] + 1 or more is not
//! stored (a payload skip; two plies count at most 218 * 218 leaves in principle, far fewer in
//! practice).
//!
//! Replacement within a bucket: the same check, else the first empty entry, else the entry
//! the check's low bits pick, so that entries replace each other at random as entries of one
//! depth do in the shared table ([`super::replace::tie_start`]'s role). Keeping the entries of
//! the largest counts instead left stale ones in place: at start position perft 8 with a
//! 32 MiB table it gave 9% fewer depth-2 hits with 27% more slots. A store is one atomic swap,
//! which returns the word it replaced: occupancy stays exact under racing writers, and no read
//! can see half an entry.

use super::shader_shared;
use crate::chess::Hash128;

pub use shader_shared::{COMPACT_COUNT_BITS, COMPACT_DEPTH};
/// Entries per compact bucket.
pub const COMPACT_WAYS: usize = shader_shared::COMPACT_WAYS as usize;
/// Bits of the check: the rest of the word.
pub const COMPACT_CHECK_BITS: u32 = 64 - COMPACT_COUNT_BITS;
/// The largest count a compact entry holds (the field holds the count + 1).
pub const MAX_COMPACT_COUNT: u64 = (1 << COMPACT_COUNT_BITS) - 2;
/// The count field of an entry (the count + 1).
pub const COMPACT_COUNT_MASK: u64 = (1 << COMPACT_COUNT_BITS) - 1;

/// Four compact entries in one 32-byte sector.
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Zeroable, bytemuck::Pod)]
pub struct CompactBucket {
    pub entries: [u64; COMPACT_WAYS],
}

const _: () = assert!(size_of::<CompactBucket>() == 32);
const _: () = assert!(align_of::<CompactBucket>() == 32);
// At least 48 check bits, and every count of two plies of a real game fits in practice.
const _: () = assert!(COMPACT_CHECK_BITS >= 48);

/// The check of `hash` as a compact entry holds it: bits 16-63 of `hash.hi`, in place.
#[inline]
pub fn compact_check(hash: Hash128) -> u64 {
    hash.hi & !COMPACT_COUNT_MASK
}

/// The verifier bits a compact probe compares when the table's verifier keeps `bits`.
pub fn compact_verifier_bits(bits: u32) -> u32 {
    bits.min(COMPACT_CHECK_BITS)
}

/// The mask a compact probe compares checks under when the table's verifier keeps `bits`:
/// the low `min(bits, 48)` bits of the check field.
pub fn compact_verifier_mask(bits: u32) -> u64 {
    let kept = compact_verifier_bits(bits);
    (u64::MAX >> (64 - kept)) << COMPACT_COUNT_BITS
}

/// The entry a store of `count` (at most [`MAX_COMPACT_COUNT`]) writes, or `None` when the
/// count does not fit (a payload skip).
#[inline]
pub fn compact_entry(check: u64, count: u64) -> Option<u64> {
    (count <= MAX_COMPACT_COUNT).then(|| check | (count + 1))
}

/// The count an occupied entry holds; `None` for an empty one.
#[inline]
pub fn compact_count(entry: u64) -> Option<u64> {
    (entry & COMPACT_COUNT_MASK).checked_sub(1)
}

/// Whether `entry` answers a probe whose check is `check` under `mask`.
#[inline]
pub fn compact_accepts(entry: u64, check: u64, mask: u64) -> bool {
    entry & COMPACT_COUNT_MASK != 0 && (entry ^ check) & mask == 0
}

/// What a probe of a compact bucket found: the count of the first entry that accepts, and how
/// many occupied entries of other positions (by the full check) it compared with.
pub fn compact_probe(bucket: &CompactBucket, check: u64, mask: u64) -> (Option<u64>, u64) {
    let wrong = bucket
        .entries
        .iter()
        .filter(|&&entry| entry & COMPACT_COUNT_MASK != 0 && entry & !COMPACT_COUNT_MASK != check)
        .count() as u64;
    let count = bucket
        .entries
        .iter()
        .find(|&&entry| compact_accepts(entry, check, mask))
        .and_then(|&entry| compact_count(entry));
    (count, wrong)
}

/// The entry of `bucket` a store of `check` replaces.
pub fn compact_victim(bucket: &CompactBucket, check: u64) -> usize {
    let entries = &bucket.entries;
    if let Some(same) = entries
        .iter()
        .position(|&entry| entry & COMPACT_COUNT_MASK != 0 && entry & !COMPACT_COUNT_MASK == check)
    {
        return same;
    }
    if let Some(empty) = entries
        .iter()
        .position(|&entry| entry & COMPACT_COUNT_MASK == 0)
    {
        return empty;
    }
    (check >> COMPACT_COUNT_BITS) as usize % COMPACT_WAYS
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hash whose check and bucket bits are all in use (the compact table's tests too).
    pub(crate) const HASH: Hash128 = Hash128 {
        hi: 0x0123_4567_89ab_cdef,
        lo: 0xfedc_ba98_7654_3210,
    };

    #[test]
    fn round_trip_and_empty() {
        let check = compact_check(HASH);
        assert_eq!(check & COMPACT_COUNT_MASK, 0);
        let entry = compact_entry(check, 400).expect("fits");
        assert_eq!(compact_count(entry), Some(400));
        assert_eq!(compact_count(0), None);
        // A count of 0 (every move mates or stalemates) is still an entry.
        assert_eq!(
            compact_count(compact_entry(check, 0).expect("fits")),
            Some(0)
        );
        assert_eq!(compact_entry(check, MAX_COMPACT_COUNT + 1), None);
        let mask = compact_verifier_mask(64);
        assert!(compact_accepts(entry, check, mask));
        assert!(!compact_accepts(0, 0, mask));
        assert!(!compact_accepts(entry, check ^ (1 << 63), mask));
    }

    #[test]
    fn narrowed_verifier_keeps_low_check_bits() {
        assert_eq!(compact_verifier_bits(64), 48);
        assert_eq!(compact_verifier_bits(8), 8);
        assert_eq!(compact_verifier_mask(8), 0xff << 16);
        assert_eq!(compact_verifier_mask(64), !COMPACT_COUNT_MASK);
        let check = compact_check(HASH);
        let entry = compact_entry(check, 7).expect("fits");
        // A difference above the 8 kept bits passes an 8-bit probe, not a full one.
        let other = check ^ (1 << 40);
        assert!(compact_accepts(entry, other, compact_verifier_mask(8)));
        assert!(!compact_accepts(entry, other, compact_verifier_mask(64)));
    }

    #[test]
    fn probe_counts_other_occupants() {
        let check = compact_check(HASH);
        let other = check ^ (1 << 20);
        let bucket = CompactBucket {
            entries: [
                compact_entry(other, 5).expect("fits"),
                0,
                compact_entry(check, 9).expect("fits"),
                compact_entry(other ^ (1 << 33), 1).expect("fits"),
            ],
        };
        assert_eq!(
            compact_probe(&bucket, check, !COMPACT_COUNT_MASK),
            (Some(9), 2)
        );
        assert_eq!(
            compact_probe(&CompactBucket::default(), check, !COMPACT_COUNT_MASK),
            (None, 0)
        );
    }

    #[test]
    fn victim_same_then_empty_then_picked_by_the_check() {
        let check = compact_check(HASH);
        let entry = |shift: u32, count| compact_entry(check ^ (1 << shift), count).expect("fits");
        let full = CompactBucket {
            entries: [entry(20, 50), entry(21, 7), entry(22, 9), entry(23, 7)],
        };
        // HASH's check bits 16-17 are 0b11.
        assert_eq!(compact_victim(&full, check), 3);
        assert_eq!(compact_victim(&full, check ^ 1 << 16), 2);
        let mut with_empty = full;
        with_empty.entries[2] = 0;
        assert_eq!(compact_victim(&with_empty, check), 2);
        let mut with_same = with_empty;
        with_same.entries[1] = compact_entry(check, 1).expect("fits");
        assert_eq!(compact_victim(&with_same, check), 1);
    }
}
