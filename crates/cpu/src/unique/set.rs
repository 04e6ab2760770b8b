//! The positions of one partition in memory: an open-addressing hash set of exact keys, cut
//! into segments that each have a lock, filled by the expansion's threads in batches (one lock
//! per batch). An entry is `W` words: the three of the [`PackedKey`](super::key::PackedKey),
//! and, where the ply is kept, a fourth with the paths (upper 56 bits) and the root move index
//! (low byte). The set never grows: a segment past [`MAX_LOAD`] refuses more, and the
//! partition is split.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;

/// Segments of a set: enough that threads rarely wait for one another's batches.
pub const SEGMENTS: usize = 64;
/// Entries a thread gathers for one segment before it takes the lock.
pub const BATCH: usize = 256;
/// The fullest a segment gets, in percent: linear probing stays short below it.
pub const MAX_LOAD_PERCENT: usize = 80;

/// Paths sit above the root index in an entry's fourth word.
pub const ROOT_BITS: u32 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertError {
    /// A segment reached its load limit: the partition holds more positions than planned.
    Full,
    /// A position's paths passed `2^56`.
    PathsOverflow,
}

struct Segment<const W: usize> {
    slots: Vec<[u64; W]>,
    len: usize,
    limit: usize,
}

pub struct PositionSet<const W: usize> {
    segments: Vec<Mutex<Segment<W>>>,
}

/// Where in a segment an entry's probe starts, and which segment: from a second mix of the
/// partition hash, whose upper bits the partition's range narrows.
#[inline(always)]
pub fn slot_hash(partition_hash: u64) -> u64 {
    (partition_hash ^ partition_hash >> 32).wrapping_mul(0xd6e8_feb8_6659_fd93)
}

#[inline(always)]
fn segment_of(slot_hash: u64) -> usize {
    (((slot_hash & 0xffff_ffff) * SEGMENTS as u64) >> 32) as usize
}

impl<const W: usize> PositionSet<W> {
    /// Bytes of one entry.
    pub const ENTRY_BYTES: usize = W * 8;

    /// A set of `slots` entries in all (allocated zeroed: pages are backed as they are used).
    pub fn new(slots: usize) -> PositionSet<W> {
        let per_segment = (slots / SEGMENTS).max(16);
        let segments = (0..SEGMENTS)
            .map(|_| {
                Mutex::new(Segment {
                    slots: vec![[0u64; W]; per_segment],
                    len: 0,
                    limit: per_segment * MAX_LOAD_PERCENT / 100,
                })
            })
            .collect();
        PositionSet { segments }
    }

    /// Positions (entries, where roots are kept apart) in the set.
    pub fn entries(&self) -> u64 {
        self.segments.iter().map(|s| lock(s).len as u64).sum()
    }

    /// Inserts a batch of entries of one segment, each with its slot hash; a key already there
    /// (with the same root) gets the new entry's paths added.
    fn insert_batch(&self, segment: usize, batch: &[(u64, [u64; W])]) -> Result<(), InsertError> {
        let mut segment = lock(&self.segments[segment]);
        let segment = &mut *segment;
        let size = segment.slots.len();
        let start = |hash: u64| ((u128::from(hash) * size as u128) >> 64) as usize;
        // Each entry's first slot read before any is written: the reads are independent, so
        // the cache misses of the batch overlap instead of coming one after another.
        let touched = batch
            .iter()
            .fold(0u64, |sum, &(hash, _)| sum ^ segment.slots[start(hash)][0]);
        std::hint::black_box(touched);
        for &(hash, entry) in batch {
            let mut at = start(hash);
            loop {
                let slot = &mut segment.slots[at];
                if slot[0] == 0 {
                    if segment.len >= segment.limit {
                        return Err(InsertError::Full);
                    }
                    *slot = entry;
                    segment.len += 1;
                    break;
                }
                if slot[..3] == entry[..3] && root_of(slot) == root_of(&entry) {
                    if let (Some(value), Some(&add)) = (slot.get_mut(3), entry.get(3)) {
                        let paths = add & !((1 << ROOT_BITS) - 1);
                        *value = value.checked_add(paths).ok_or(InsertError::PathsOverflow)?;
                    }
                    break;
                }
                at = if at + 1 == size { 0 } else { at + 1 };
            }
        }
        Ok(())
    }

    /// Sorts each segment's entries by key, then root (`threads` at a time), and hands every
    /// entry to `visit` in that order across the segments.
    pub fn for_each_sorted<E>(
        &mut self,
        threads: usize,
        mut visit: impl FnMut(&[u64; W]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut segments: Vec<&mut Segment<W>> = self
            .segments
            .iter_mut()
            .map(|s| s.get_mut().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let share = segments.len().div_ceil(threads.max(1));
        std::thread::scope(|scope| {
            for group in segments.chunks_mut(share) {
                scope.spawn(move || {
                    for segment in group {
                        segment.slots.retain(|slot| slot[0] != 0);
                        segment.slots.sort_unstable_by_key(order);
                    }
                });
            }
        });
        // The head of each segment, by its order and the segment's index.
        let mut heap: BinaryHeap<Reverse<(Order, usize)>> = BinaryHeap::new();
        let mut next = vec![0usize; segments.len()];
        for (index, segment) in segments.iter().enumerate() {
            if let Some(first) = segment.slots.first() {
                heap.push(Reverse((order(first), index)));
            }
        }
        while let Some(Reverse((_, index))) = heap.pop() {
            let slots = &segments[index].slots;
            visit(&slots[next[index]])?;
            next[index] += 1;
            if let Some(entry) = slots.get(next[index]) {
                heap.push(Reverse((order(entry), index)));
            }
        }
        Ok(())
    }
}

/// The root index of an entry (0 without a fourth word).
#[inline(always)]
pub fn root_of<const W: usize>(entry: &[u64; W]) -> u64 {
    entry
        .get(3)
        .map_or(0, |value| value & ((1 << ROOT_BITS) - 1))
}

/// Key, then root: the order of ply files.
type Order = ([u64; 3], u64);

fn order<const W: usize>(entry: &[u64; W]) -> Order {
    ([entry[0], entry[1], entry[2]], root_of(entry))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A thread that panicked left no half-inserted entry: each slot is written whole.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A thread's batches, one per segment, for one set.
pub struct Batches<'a, const W: usize> {
    set: &'a PositionSet<W>,
    batches: Vec<Vec<(u64, [u64; W])>>,
}

impl<'a, const W: usize> Batches<'a, W> {
    /// Bytes a thread's batches take at most.
    pub const BYTES: usize = SEGMENTS * BATCH * (8 + W * 8);

    pub fn new(set: &'a PositionSet<W>) -> Batches<'a, W> {
        Batches {
            set,
            batches: (0..SEGMENTS).map(|_| Vec::with_capacity(BATCH)).collect(),
        }
    }

    #[inline(always)]
    pub fn push(&mut self, partition_hash: u64, entry: [u64; W]) -> Result<(), InsertError> {
        let hash = slot_hash(partition_hash);
        let segment = segment_of(hash);
        let batch = &mut self.batches[segment];
        batch.push((hash, entry));
        if batch.len() == BATCH {
            self.set.insert_batch(segment, batch)?;
            batch.clear();
        }
        Ok(())
    }

    pub fn flush(&mut self) -> Result<(), InsertError> {
        for (segment, batch) in self.batches.iter_mut().enumerate() {
            self.set.insert_batch(segment, batch)?;
            batch.clear();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::rng::SplitMix64;
    use std::collections::BTreeMap;

    /// Entries from two threads add up per (key, root) as a map does, come out sorted, and a
    /// set past its load limit says so.
    #[test]
    fn sets_merge_entries_and_refuse_overfilling() {
        let mut rng = SplitMix64::new(9);
        let entries: Vec<(u64, [u64; 4])> = (0..20_000)
            .map(|_| {
                let k = rng.below(3_000) + 1;
                let root = rng.below(3);
                (
                    k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    [k, 0, k % 7, (5 << ROOT_BITS) | root],
                )
            })
            .collect();
        let mut expected: BTreeMap<([u64; 3], u64), u64> = BTreeMap::new();
        for (_, e) in &entries {
            *expected
                .entry(([e[0], e[1], e[2]], e[3] & 0xff))
                .or_default() += 5;
        }
        let mut set = PositionSet::<4>::new(16_384);
        std::thread::scope(|scope| {
            for half in entries.chunks(entries.len() / 2) {
                let set = &set;
                scope.spawn(move || {
                    let mut batches = Batches::new(set);
                    for &(hash, entry) in half {
                        batches.push(hash, entry).expect("room");
                    }
                    batches.flush().expect("room");
                });
            }
        });
        assert_eq!(set.entries(), expected.len() as u64);
        let mut got = Vec::new();
        set.for_each_sorted(2, |e| {
            got.push((([e[0], e[1], e[2]], e[3] & 0xff), e[3] >> ROOT_BITS));
            Ok::<(), ()>(())
        })
        .expect("visited");
        let want: Vec<_> = expected.into_iter().collect();
        assert_eq!(got, want);

        let small = PositionSet::<3>::new(1_024);
        let mut batches = Batches::new(&small);
        let filled = (1..2_000u64)
            .try_for_each(|k| batches.push(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), [k, 0, 0]));
        assert_eq!(
            filled.and_then(|()| batches.flush()),
            Err(InsertError::Full)
        );
    }
}
