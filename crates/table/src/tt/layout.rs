//! How many bytes an entry and a bucket take in each mode, and how many entries a bucket holds:
//! what a memory budget is divided by, before any table exists.

use super::exact::{ExactEntry, VerifiedBucket, VERIFIED_WAYS};
use super::fast::{FastBucket, FAST_WAYS};
use super::mode::TtMode;

const FAST_SLOT_BYTES: usize = size_of::<FastBucket>() / FAST_WAYS;
const VERIFIED_SLOT_BYTES: usize = size_of::<VerifiedBucket>() / VERIFIED_WAYS;
pub(super) const CERTIFY_SLOT_BYTES: usize = FAST_SLOT_BYTES + size_of::<ExactEntry>();

const _: () = assert!(FAST_SLOT_BYTES == 16);
const _: () = assert!(VERIFIED_SLOT_BYTES == 64);
const _: () = assert!(CERTIFY_SLOT_BYTES == 80);

/// Bytes one slot (entry) takes in `mode`; `None` for `off`.
pub const fn slot_bytes(mode: TtMode) -> Option<usize> {
    match mode {
        TtMode::Off => None,
        TtMode::Fast => Some(FAST_SLOT_BYTES),
        TtMode::Verified => Some(VERIFIED_SLOT_BYTES),
        TtMode::Certify => Some(CERTIFY_SLOT_BYTES),
    }
}

/// Entries per bucket in `mode`; `None` for `off`.
pub const fn ways(mode: TtMode) -> Option<usize> {
    match mode {
        TtMode::Off => None,
        TtMode::Fast | TtMode::Certify => Some(FAST_WAYS),
        TtMode::Verified => Some(VERIFIED_WAYS),
    }
}

/// Bytes one bucket takes in `mode` (the table's unit of size); `None` for `off`.
pub const fn bucket_bytes(mode: TtMode) -> Option<usize> {
    match (slot_bytes(mode), ways(mode)) {
        (Some(slot), Some(ways)) => Some(slot * ways),
        _ => None,
    }
}
