//! The fast entry: 16 bytes, a 64-bit verification word and a 64-bit count.
//!
//! Layout (`#[repr(C)]`, two little-endian `u64` words; the GPU backend mirrors it byte for
//! byte):
//!
//! | offset | field          | value                          |
//! |--------|----------------|--------------------------------|
//! | 0      | `verification` | `(hash.hi ^ hash.lo) ^ count`  |
//! | 8      | `count`        | perft count of the subtree     |
//!
//! The all-zero entry is an empty slot. A probe for `hash` hits iff
//! `((verification ^ count) ^ (hash.hi ^ hash.lo)) & verifier_mask == 0`.
//!
//! The two words are written and read as separate atomics, without a lock, so a reader racing
//! two writers can see the verification of one and the count of the other. The count is folded
//! into the verification so that such a torn pair fails the check (at 64 bits it passes only if
//! the two differences cancel exactly, probability 2^-64) instead of returning a wrong count.

use crate::chess::Hash128;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[repr(C)]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct FastEntry {
    verification: AtomicU64,
    count: AtomicU64,
}

const _: () = assert!(size_of::<FastEntry>() == 16);

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

/// One read of a fast entry's two words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastContents {
    pub verification: u64,
    pub count: u64,
}

impl FastContents {
    pub fn written(check: u64, count: u64) -> FastContents {
        FastContents {
            verification: check ^ count,
            count,
        }
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.verification == 0 && self.count == 0
    }

    /// The full 64-bit check of whoever wrote this entry (if it is not torn).
    #[inline]
    pub fn stored_check(self) -> u64 {
        self.verification ^ self.count
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
            count: self.count.load(Relaxed),
        }
    }

    #[inline]
    pub fn store(&self, contents: FastContents) {
        self.verification.store(contents.verification, Relaxed);
        self.count.store(contents.count, Relaxed);
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
    fn round_trip() {
        let entry = FastEntry::default();
        assert!(entry.load().is_empty());
        let check = fast_check(HASH);
        entry.store(FastContents::written(check, 197_281));
        let read = entry.load();
        assert!(read.accepts(check, u64::MAX));
        assert_eq!(read.count, 197_281);
        assert!(!read.accepts(check ^ 1, u64::MAX));
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
        let a = FastContents::written(check_a, 8_902);
        let b = FastContents::written(check_b, 9_322);
        // Verification of one write, count of the other, in both orders.
        for (verification, count) in [(a.verification, b.count), (b.verification, a.count)] {
            let torn = FastContents {
                verification,
                count,
            };
            assert!(!torn.accepts(check_a, u64::MAX));
            assert!(!torn.accepts(check_b, u64::MAX));
        }
    }
}
