//! The exact entry: 64 bytes holding the exact position key, the remaining depth and a 128-bit
//! count, guarded by a per-entry seqlock. Used by `verified` (two per bucket,
//! [`VerifiedBucket`]), and as the shadow of each fast entry by `certify`.
//!
//! Layout (`#[repr(C, align(64))]`, eight little-endian `u64` words, one cache line; the GPU
//! backend mirrors it byte for byte):
//!
//! | offset | field      | value                                                          |
//! |--------|------------|----------------------------------------------------------------|
//! | 0      | `sequence` | seqlock: even = stable, odd = a writer is busy                 |
//! | 8      | `tag`      | bits 0-7: remaining depth + 1 (0 = empty slot); bits 8-63: `hash.hi >> 8` |
//! | 16     | `count_lo` | low 64 bits of the count                                       |
//! | 24     | `count_hi` | high 64 bits of the count                                      |
//! | 32     | `key[0..4]`| the `NybbleBoard` planes 0-3                                   |
//!
//! A hit requires the exact key and the same depth. The hash bits in the tag only filter: a
//! differing tag proves another position or depth without computing the probe's key, while an
//! equal tag still needs the key comparison.
//!
//! Seqlock protocol, so that concurrent writers never produce a torn entry that a reader
//! accepts:
//! - A writer loads the sequence; if it is odd, or the compare-exchange from that even value to
//!   the next odd one fails, another writer is busy and the store is skipped. It then issues a
//!   release fence, writes the fields with relaxed stores, and publishes the next even value
//!   with a release store.
//! - A reader loads the sequence with acquire and treats an odd value as a miss, reads the
//!   fields with relaxed loads, issues an acquire fence and reloads the sequence: any change
//!   means a writer overlapped the read, and the read is a miss.
//!
//! The writer's release fence pairs with the reader's acquire fence: if the reader saw any
//! field written after the writer took the lock, its reload sees the odd (or a later) sequence.

use super::shader_shared;
use crate::chess::{Hash128, NybbleBoard};
use std::sync::atomic::{fence, AtomicU64, Ordering};

#[repr(C, align(64))]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct ExactEntry {
    sequence: AtomicU64,
    tag: AtomicU64,
    count_lo: AtomicU64,
    count_hi: AtomicU64,
    key: [AtomicU64; 4],
}

const _: () = assert!(size_of::<ExactEntry>() == 64);
const _: () = assert!(align_of::<ExactEntry>() == 64);
// The words the shaders address each field by (crates/table/src/tt/shader_shared.rs).
const _: () = {
    use shader_shared::{EXACT_COUNT, EXACT_KEY, EXACT_SEQUENCE, EXACT_TAG, EXACT_WORDS};
    assert!(size_of::<ExactEntry>() == EXACT_WORDS as usize * 8);
    assert!(std::mem::offset_of!(ExactEntry, sequence) == EXACT_SEQUENCE as usize * 8);
    assert!(std::mem::offset_of!(ExactEntry, tag) == EXACT_TAG as usize * 8);
    assert!(std::mem::offset_of!(ExactEntry, count_lo) == EXACT_COUNT as usize * 8);
    assert!(std::mem::offset_of!(ExactEntry, count_hi) == (EXACT_COUNT as usize + 1) * 8);
    assert!(std::mem::offset_of!(ExactEntry, key) == EXACT_KEY as usize * 8);
};

/// Entries per `verified` bucket.
pub const VERIFIED_WAYS: usize = shader_shared::VERIFIED_WAYS as usize;

/// A `verified` bucket: two exact entries in two adjacent cache lines, aligned to 128 bytes
/// (the pair of lines an adjacent-line prefetcher fetches together); a store replaces the
/// shallower ([`super::replace`]).
#[repr(C, align(128))]
#[derive(Debug, Default, bytemuck::Zeroable)]
pub struct VerifiedBucket {
    pub entries: [ExactEntry; VERIFIED_WAYS],
}

const _: () = assert!(size_of::<VerifiedBucket>() == 128);
const _: () = assert!(align_of::<VerifiedBucket>() == 128);

const DEPTH_BITS: u32 = shader_shared::TAG_DEPTH_BITS;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;

/// The tag a `(hash, depth)` pair writes; depth must be at most 254.
#[inline]
pub fn tag_of(hash: Hash128, depth: u32) -> u64 {
    (hash.hi >> DEPTH_BITS) << DEPTH_BITS | (u64::from(depth) + 1)
}

/// The remaining depth a tag records; `None` for an empty entry.
#[inline]
pub fn tag_depth(tag: u64) -> Option<u32> {
    ((tag & DEPTH_MASK) as u32).checked_sub(1)
}

/// What a slot holds, relative to the position a probe or store is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupant {
    Empty,
    /// The same position at the same remaining depth.
    Same,
    /// Another position, or the same one at another depth.
    Other,
}

/// One consistent read of an exact entry's fields (the sequence excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactContents {
    pub tag: u64,
    pub count: u128,
    pub key: NybbleBoard,
}

impl ExactContents {
    pub fn new(hash: Hash128, depth: u32, key: NybbleBoard, count: u128) -> ExactContents {
        ExactContents {
            tag: tag_of(hash, depth),
            count,
            key,
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.tag & DEPTH_MASK == 0
    }

    /// The remaining depth of the stored entry; `None` for an empty slot.
    #[inline]
    pub fn depth(&self) -> Option<u32> {
        tag_depth(self.tag)
    }

    /// Compares this entry with the position whose tag is `tag`; `key` is computed only when
    /// the tags agree, because the exact key costs time.
    #[inline]
    pub fn occupant(&self, tag: u64, key: impl FnOnce() -> NybbleBoard) -> Occupant {
        if self.is_empty() {
            Occupant::Empty
        } else if self.tag == tag && self.key == key() {
            Occupant::Same
        } else {
            Occupant::Other
        }
    }
}

impl ExactEntry {
    /// The tag as last written, read without the seqlock: only a hint (a store picks its
    /// victim by it, then reads the entry under the lock).
    #[inline]
    pub fn peek_tag(&self) -> u64 {
        self.tag.load(Ordering::Relaxed)
    }

    /// The eight words as laid out in memory (sequence, tag, count low and high, key planes),
    /// each read on its own: what the GPU table holds for this entry.
    pub fn words(&self) -> [u64; 8] {
        let [plane0, plane1, plane2, plane3] = self
            .key
            .each_ref()
            .map(|plane| plane.load(Ordering::Relaxed));
        [
            self.sequence.load(Ordering::Relaxed),
            self.tag.load(Ordering::Relaxed),
            self.count_lo.load(Ordering::Relaxed),
            self.count_hi.load(Ordering::Relaxed),
            plane0,
            plane1,
            plane2,
            plane3,
        ]
    }

    /// Reads the entry, and with it whatever `read_beside` reads (certify's fast entry), under
    /// the seqlock. `None` when a writer is busy or overlapped the read.
    #[inline]
    pub fn read<T>(&self, read_beside: impl FnOnce() -> T) -> Option<(ExactContents, T)> {
        let before = self.sequence.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let contents = self.read_fields();
        let beside = read_beside();
        fence(Ordering::Acquire);
        (self.sequence.load(Ordering::Relaxed) == before).then_some((contents, beside))
    }

    /// Takes the slot's write lock; `None` when another writer holds it (skip the store).
    #[inline]
    pub fn try_lock(&self) -> Option<ExactWriteGuard<'_>> {
        let stable = self.sequence.load(Ordering::Relaxed);
        if stable & 1 != 0 {
            return None;
        }
        self.sequence
            .compare_exchange(stable, stable + 1, Ordering::Acquire, Ordering::Relaxed)
            .ok()?;
        // Orders the odd sequence before every field store below (see the module docs).
        fence(Ordering::Release);
        Some(ExactWriteGuard {
            entry: self,
            released: stable + 2,
        })
    }

    #[inline]
    fn read_fields(&self) -> ExactContents {
        let count_lo = self.count_lo.load(Ordering::Relaxed);
        let count_hi = self.count_hi.load(Ordering::Relaxed);
        ExactContents {
            tag: self.tag.load(Ordering::Relaxed),
            count: u128::from(count_hi) << 64 | u128::from(count_lo),
            key: NybbleBoard {
                planes: self
                    .key
                    .each_ref()
                    .map(|plane| plane.load(Ordering::Relaxed)),
            },
        }
    }
}

/// Holds a slot's seqlock odd; dropping it publishes the next even sequence.
pub struct ExactWriteGuard<'a> {
    entry: &'a ExactEntry,
    released: u64,
}

impl ExactWriteGuard<'_> {
    /// The entry as the last writer left it.
    #[inline]
    pub fn contents(&self) -> ExactContents {
        self.entry.read_fields()
    }

    #[inline]
    pub fn write(&self, contents: &ExactContents) {
        let entry = self.entry;
        entry.tag.store(contents.tag, Ordering::Relaxed);
        entry
            .count_lo
            .store(contents.count as u64, Ordering::Relaxed);
        entry
            .count_hi
            .store((contents.count >> 64) as u64, Ordering::Relaxed);
        for (plane, value) in entry.key.iter().zip(contents.key.planes) {
            plane.store(value, Ordering::Relaxed);
        }
    }
}

impl Drop for ExactWriteGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        self.entry.sequence.store(self.released, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, Zobrist};

    #[test]
    fn write_then_read() {
        let entry = ExactEntry::default();
        let (empty, ()) = entry.read(|| ()).expect("an idle slot reads");
        assert!(empty.is_empty());
        assert_eq!(empty.depth(), None);

        let pos = Position::startpos();
        let hash = Zobrist::default().hash(&pos);
        let key = NybbleBoard::from_position(&pos);
        let count = u128::MAX - 5;
        let written = ExactContents::new(hash, 7, key, count);
        entry.try_lock().expect("no other writer").write(&written);

        let (read, ()) = entry.read(|| ()).expect("no writer busy");
        assert_eq!(read, written);
        assert_eq!(read.depth(), Some(7));
        assert_eq!(read.occupant(tag_of(hash, 7), || key), Occupant::Same);
        assert_eq!(read.occupant(tag_of(hash, 6), || key), Occupant::Other);
    }

    #[test]
    fn busy_slot_refuses_readers_and_writers() {
        let entry = ExactEntry::default();
        let guard = entry.try_lock().expect("no other writer");
        assert!(entry.try_lock().is_none());
        assert!(entry.read(|| ()).is_none());
        drop(guard);
        assert!(entry.try_lock().is_some());
        assert!(entry.read(|| ()).is_some());
    }
}
