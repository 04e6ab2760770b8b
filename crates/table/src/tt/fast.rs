//! The fast entry: 16 bytes, a 64-bit verification word and a 64-bit data word holding the
//! count and the remaining depth; four entries make a 64-byte, cache-line-aligned bucket.
//!
//! Entry layout (`#[repr(C)]`, two little-endian `u64` words; the GPU backend mirrors it byte
//! for byte):
//!
//! | offset | bits  | field          | value                                          |
//! |--------|-------|----------------|------------------------------------------------|
//! | 0      | 0-63  | `verification` | `(hash.hi ^ hash.lo) ^ data`                   |
//! | 8      | 0-7   | `data`: depth  | remaining depth + 1 (0 = empty entry)          |
//! | 8      | 8-63  | `data`: count  | perft count of the subtree (56 bits)           |
//!
//! Bucket layout (`#[repr(C, align(64))]`, one cache line): entries 0-3 at offsets 0, 16, 32,
//! 48, all alike; a store replaces the shallowest ([`super::replace`]).
//!
//! The all-zero entry is empty; since a written entry's depth field is at least 1, an entry is
//! empty iff its data word is 0. A probe for `hash` accepts an entry iff it is not empty and
//! `((verification ^ data) ^ (hash.hi ^ hash.lo)) & verifier_mask == 0`.
//!
//! The depth lives in the data word, so a store picks its victim from the bucket's own cache
//! line, and the verifier keeps all 64 bits: the price is the payload, 56 bits (counts of
//! 2^56 or more, about 7.2e16, are not stored: a payload skip; startpos perft 12 still fits).
//!
//! The two words are written and read as separate atomics, without a lock, so a reader racing
//! two writers can see the verification of one and the data of the other. The whole data
//! word, count and depth, is folded into the verification so that such a torn pair fails the
//! check (at 64 bits it passes only if the two differences cancel exactly, probability 2^-64)
//! instead of returning a wrong count. A store writes the verification, then swaps the data
//! word: the swap returns the data word it replaced, so exactly one store vacates each entry
//! and the per-depth used-slot counts stay exact under racing writers.

use super::shader_shared;
use crate::chess::Hash128;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[repr(C)]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct FastEntry {
    verification: AtomicU64,
    data: AtomicU64,
}

/// Entries per fast bucket.
pub const FAST_WAYS: usize = shader_shared::FAST_WAYS as usize;

/// Four fast entries in one cache line.
#[repr(C, align(64))]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct FastBucket {
    pub entries: [FastEntry; FAST_WAYS],
}

const _: () = assert!(size_of::<FastEntry>() == 16);
const _: () = assert!(size_of::<FastEntry>() == shader_shared::FAST_WORDS as usize * 8);
const _: () = assert!(size_of::<FastBucket>() == 64);
const _: () = assert!(align_of::<FastBucket>() == 64);

/// Bits of the data word below the count: the remaining depth + 1.
pub const FAST_DEPTH_BITS: u32 = shader_shared::FAST_DEPTH_BITS;
const FAST_DEPTH_MASK: u64 = (1 << FAST_DEPTH_BITS) - 1;
/// The largest count a fast entry holds.
pub const MAX_FAST_COUNT: u64 = u64::MAX >> FAST_DEPTH_BITS;

// Every depth with statistics fits the depth field.
const _: () = assert!((super::shader_shared::MAX_TABLE_DEPTH as u64) < FAST_DEPTH_MASK);

/// The 64 bits a fast entry is verified with: the whole hash folded, so that the index (taken
/// from `hash.lo`) and the check are not the same bits.
#[inline]
pub fn fast_check(hash: Hash128) -> u64 {
    hash.hi ^ hash.lo
}

/// Keeps the low `bits` bits of a verification difference (all 64 for `bits >= 64`).
#[inline]
pub fn verifier_mask(bits: u32) -> u64 {
    u64::MAX.checked_shr(64 - bits.min(64)).unwrap_or(0)
}

/// The count as the fast payload, or `None` if it does not fit (a payload skip).
#[inline]
pub fn fast_payload(count: u128) -> Option<u64> {
    u64::try_from(count).ok().filter(|&c| c <= MAX_FAST_COUNT)
}

/// One read of a fast entry's two words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastContents {
    pub verification: u64,
    pub data: u64,
}

impl FastContents {
    /// The entry a store of `count` (at most [`MAX_FAST_COUNT`]) at `depth` writes.
    pub fn written(check: u64, count: u64, depth: u32) -> FastContents {
        debug_assert!(count <= MAX_FAST_COUNT);
        let data = count << FAST_DEPTH_BITS | (u64::from(depth) + 1);
        FastContents {
            verification: check ^ data,
            data,
        }
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.data == 0
    }

    #[inline]
    pub fn count(self) -> u64 {
        self.data >> FAST_DEPTH_BITS
    }

    /// The remaining depth of the entry; `None` when empty.
    #[inline]
    pub fn depth(self) -> Option<u32> {
        ((self.data & FAST_DEPTH_MASK) as u32).checked_sub(1)
    }

    /// The full 64-bit check of whoever wrote this entry (if it is not torn).
    #[inline]
    pub fn stored_check(self) -> u64 {
        self.verification ^ self.data
    }

    /// Whether a probe whose check is `check` accepts this entry with the given verifier mask.
    #[inline]
    pub fn accepts(self, check: u64, mask: u64) -> bool {
        !self.is_empty() && (self.stored_check() ^ check) & mask == 0
    }
}

impl FastEntry {
    #[inline]
    pub fn load(&self) -> FastContents {
        FastContents {
            verification: self.verification.load(Relaxed),
            data: self.data.load(Relaxed),
        }
    }

    /// Writes `contents`; returns the data word it replaced (its depth is the vacated one).
    #[inline]
    pub fn store(&self, contents: FastContents) -> u64 {
        self.verification.store(contents.verification, Relaxed);
        self.data.swap(contents.data, Relaxed)
    }
}

impl FastBucket {
    #[inline]
    pub fn load(&self) -> [FastContents; FAST_WAYS] {
        self.entries.each_ref().map(FastEntry::load)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: Hash128 = Hash128 {
        hi: 0x0123_4567_89ab_cdef,
        lo: 0xfedc_ba98_7654_3210 ^ 0x5555,
    };

    #[test]
    fn mask_widths() {
        assert_eq!(verifier_mask(8), 0xff);
        assert_eq!(verifier_mask(16), 0xffff);
        assert_eq!(verifier_mask(63), u64::MAX >> 1);
        assert_eq!(verifier_mask(64), u64::MAX);
    }

    #[test]
    fn payload_limit() {
        assert_eq!(fast_payload(197_281), Some(197_281));
        assert_eq!(
            fast_payload(u128::from(MAX_FAST_COUNT)),
            Some(MAX_FAST_COUNT)
        );
        assert_eq!(fast_payload(u128::from(MAX_FAST_COUNT) + 1), None);
        assert_eq!(fast_payload(u128::MAX), None);
    }

    #[test]
    fn round_trip() {
        let entry = FastEntry::default();
        assert!(entry.load().is_empty());
        assert_eq!(entry.load().depth(), None);
        let check = fast_check(HASH);
        assert_eq!(entry.store(FastContents::written(check, 197_281, 5)), 0);
        let read = entry.load();
        assert!(read.accepts(check, u64::MAX));
        assert_eq!(read.count(), 197_281);
        assert_eq!(read.depth(), Some(5));
        assert!(!read.accepts(check ^ 1, u64::MAX));
        let written = FastContents::written(check, MAX_FAST_COUNT, 64);
        assert_eq!(entry.store(written), read.data);
        assert_eq!(
            (entry.load().count(), entry.load().depth()),
            (MAX_FAST_COUNT, Some(64))
        );
        // A count of 0 at depth 0 is still an entry.
        assert!(!FastContents::written(check, 0, 0).is_empty());
    }

    #[test]
    fn empty_entry_never_accepts() {
        assert!(!FastEntry::default().load().accepts(0, u64::MAX));
    }

    #[test]
    fn torn_entry_fails_the_full_check() {
        let check_a = fast_check(HASH);
        let check_b = fast_check(Hash128 {
            hi: 0xdead_beef,
            lo: 0x1234,
        });
        let a = FastContents::written(check_a, 8_902, 3);
        let b = FastContents::written(check_b, 9_322, 3);
        // The same position stored at two depths: the counts differ, and so do the depths.
        let c = FastContents::written(check_a, 197_281, 4);
        // Verification of one write, data of the other, in both orders.
        for (x, y) in [(a, b), (b, a), (a, c), (c, a)] {
            let torn = FastContents {
                verification: x.verification,
                data: y.data,
            };
            assert!(!torn.accepts(check_a, u64::MAX));
            assert!(!torn.accepts(check_b, u64::MAX));
        }
    }
}
