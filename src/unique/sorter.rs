//! External sort of entries within a memory budget: entries collect in memory, are sorted and
//! their duplicates merged when the buffer fills, and go to disk as a sorted run when merging
//! does not free enough room. The result is one stream sorted by key and root, each (key, root)
//! once with the paths of all its copies.

use super::entry::Entry;
use super::error::UniqueError;
use super::scratch::Scratch;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

/// The smallest and largest buffer of a file the sort or the expansion reads or writes.
const MIN_IO_BUFFER: usize = 16 << 10;
const MAX_IO_BUFFER: usize = 1 << 20;
/// The fewest entries the memory buffer holds, whatever the budget.
const MIN_ENTRIES: usize = 1 << 12;
/// The most runs one merge reads at once: with the run it writes and the ply files, the
/// expansion never holds more than `MAX_FAN_IN + 2` files open.
const MAX_FAN_IN: usize = 64;
/// Entries merged between two looks at the interruption flag.
const CHECK_EVERY: u64 = 1 << 16;

/// How an expansion spends its memory budget: the entry buffer of the sort, and the buffers
/// of the files it reads and writes. The entry buffer, the runs a merge reads, the run it
/// writes and the two ply files of the expansion together stay within the budget (or within
/// the least that works: a few thousand entries and two runs at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Entries the sort buffers before it spills a run.
    pub entries: usize,
    /// The buffer of each file read or written, in bytes.
    pub io_buffer: usize,
    /// Runs merged at once.
    pub fan_in: usize,
}

impl Budget {
    pub fn of(memory_bytes: usize) -> Budget {
        let io_buffer = (memory_bytes / 16).clamp(MIN_IO_BUFFER, MAX_IO_BUFFER);
        // Two buffers for the ply files the expansion reads and writes beside the sort.
        let left = memory_bytes.saturating_sub(2 * io_buffer);
        Budget {
            entries: (left / std::mem::size_of::<Entry>()).max(MIN_ENTRIES),
            // A merge reads `fan_in` runs and writes one, each through a buffer.
            io_buffer,
            fan_in: (left / io_buffer).saturating_sub(1).clamp(2, MAX_FAN_IN),
        }
    }
}

pub struct Sorter {
    entries: Vec<Entry>,
    budget: Budget,
    runs: Vec<PathBuf>,
    interrupted: fn() -> bool,
}

impl Sorter {
    /// A sorter within `budget` that stops with [`UniqueError::Interrupted`] once
    /// `interrupted` says so.
    pub fn new(budget: Budget, interrupted: fn() -> bool) -> Sorter {
        Sorter {
            entries: Vec::new(),
            budget,
            runs: Vec::new(),
            interrupted,
        }
    }

    pub fn push(&mut self, entry: Entry, scratch: &mut Scratch) -> Result<(), UniqueError> {
        if self.entries.len() == self.entries.capacity() {
            if self.entries.len() >= self.budget.entries {
                self.compact();
                // Merging freed less than half the buffer: this part goes to disk.
                if self.entries.len() > self.budget.entries / 2 {
                    self.spill(scratch)?;
                }
            }
            // Grow by doubling, never past the budget.
            let wanted = (self.entries.len() * 2).clamp(MIN_ENTRIES, self.budget.entries);
            self.entries
                .reserve_exact(wanted.saturating_sub(self.entries.len()).max(1));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// Sorts the buffer and merges the entries of one (key, root).
    fn compact(&mut self) {
        self.entries.sort_unstable_by(Entry::order);
        self.entries.dedup_by(|later, kept| {
            let same = later.same_class(kept);
            if same {
                kept.add_paths(later.paths());
            }
            same
        });
    }

    fn spill(&mut self, scratch: &mut Scratch) -> Result<(), UniqueError> {
        if (self.interrupted)() {
            return Err(UniqueError::Interrupted);
        }
        let path = scratch.file("run");
        let file = File::create(&path).map_err(|e| UniqueError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(self.budget.io_buffer, file);
        for entry in &self.entries {
            entry
                .write_to(&mut out)
                .map_err(|e| UniqueError::io(&path, e))?;
        }
        out.flush().map_err(|e| UniqueError::io(&path, e))?;
        self.entries.clear();
        self.runs.push(path);
        Ok(())
    }

    /// Every entry pushed, sorted, one per (key, root). Runs are merged `fan_in` at a time
    /// into longer ones until one merge reads them all.
    pub fn finish(mut self, scratch: &mut Scratch) -> Result<SortedEntries, UniqueError> {
        self.compact();
        if self.runs.is_empty() {
            return Ok(SortedEntries::Memory(self.entries.into_iter()));
        }
        if !self.entries.is_empty() {
            self.spill(scratch)?;
        }
        self.entries = Vec::new();
        let budget = self.budget;
        while self.runs.len() > budget.fan_in {
            let group: Vec<PathBuf> = self.runs.drain(..budget.fan_in).collect();
            let mut merge = RunMerge::open(group, budget.io_buffer)?;
            let path = scratch.file("run");
            let file = File::create(&path).map_err(|e| UniqueError::io(&path, e))?;
            let mut out = BufWriter::with_capacity(budget.io_buffer, file);
            let mut merged = 0u64;
            while let Some(entry) = merge.next_merged()? {
                merged += 1;
                if merged.is_multiple_of(CHECK_EVERY) && (self.interrupted)() {
                    return Err(UniqueError::Interrupted);
                }
                entry
                    .write_to(&mut out)
                    .map_err(|e| UniqueError::io(&path, e))?;
            }
            out.flush().map_err(|e| UniqueError::io(&path, e))?;
            merge.remove_runs();
            self.runs.push(path);
        }
        Ok(SortedEntries::Runs(RunMerge::open(
            std::mem::take(&mut self.runs),
            budget.io_buffer,
        )?))
    }
}

struct RunReader {
    input: BufReader<File>,
    path: PathBuf,
}

impl RunReader {
    fn next(&mut self) -> Result<Option<Entry>, UniqueError> {
        Entry::read_from(&mut self.input).map_err(|e| UniqueError::io(&self.path, e))
    }
}

/// An entry at the head of a run, ordered as the runs are.
struct HeapEntry {
    entry: Entry,
    run: usize,
}

impl PartialEq for HeapEntry {
    fn eq(&self, other: &HeapEntry) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for HeapEntry {}
impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &HeapEntry) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapEntry {
    fn cmp(&self, other: &HeapEntry) -> std::cmp::Ordering {
        self.entry
            .order(&other.entry)
            .then(self.run.cmp(&other.run))
    }
}

/// The k-way merge of sorted runs, adding the paths of a (key, root) found in several runs.
pub struct RunMerge {
    readers: Vec<RunReader>,
    heap: BinaryHeap<Reverse<HeapEntry>>,
    /// The run files (deleted after an intermediate merge, else with the scratch folder).
    runs: Vec<PathBuf>,
}

impl RunMerge {
    /// Opens `runs`, each read through a buffer of `io_buffer` bytes.
    fn open(runs: Vec<PathBuf>, io_buffer: usize) -> Result<RunMerge, UniqueError> {
        let mut readers = Vec::with_capacity(runs.len());
        let mut heap = BinaryHeap::with_capacity(runs.len());
        for (index, path) in runs.iter().enumerate() {
            let file = File::open(path).map_err(|e| UniqueError::io(path, e))?;
            let mut reader = RunReader {
                input: BufReader::with_capacity(io_buffer, file),
                path: path.clone(),
            };
            if let Some(entry) = reader.next()? {
                heap.push(Reverse(HeapEntry { entry, run: index }));
            }
            readers.push(reader);
        }
        Ok(RunMerge {
            readers,
            heap,
            runs,
        })
    }

    /// Closes the runs and deletes them: their entries are in the run merged from them.
    fn remove_runs(self) {
        drop(self.readers);
        for run in &self.runs {
            let _ = std::fs::remove_file(run);
        }
    }

    fn pop(&mut self) -> Result<Option<Entry>, UniqueError> {
        let Some(Reverse(head)) = self.heap.pop() else {
            return Ok(None);
        };
        if let Some(entry) = self.readers[head.run].next()? {
            self.heap.push(Reverse(HeapEntry {
                entry,
                run: head.run,
            }));
        }
        Ok(Some(head.entry))
    }

    fn next_merged(&mut self) -> Result<Option<Entry>, UniqueError> {
        let Some(mut merged) = self.pop()? else {
            return Ok(None);
        };
        while let Some(Reverse(head)) = self.heap.peek() {
            if !head.entry.same_class(&merged) {
                break;
            }
            let paths = head.entry.paths();
            merged.add_paths(paths);
            self.pop()?;
        }
        Ok(Some(merged))
    }
}

/// Sorted, merged entries: straight from memory when nothing was spilled, else merged from
/// the runs on disk.
pub enum SortedEntries {
    Memory(std::vec::IntoIter<Entry>),
    Runs(RunMerge),
}

impl SortedEntries {
    pub fn next_entry(&mut self) -> Result<Option<Entry>, UniqueError> {
        match self {
            SortedEntries::Memory(entries) => Ok(entries.next()),
            SortedEntries::Runs(merge) => merge.next_merged(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::rng::SplitMix64;
    use crate::chess::NybbleBoard;
    use std::collections::BTreeMap;

    fn sorted(sorter: Sorter, scratch: &mut Scratch) -> Vec<Entry> {
        let mut stream = sorter.finish(scratch).expect("sorted");
        let mut out = Vec::new();
        while let Some(entry) = stream.next_entry().expect("readable") {
            out.push(entry);
        }
        out
    }

    /// A tiny budget spills many runs; the merged stream equals an in-memory count.
    #[test]
    fn spilled_runs_merge_to_the_exact_counts() {
        let dir = std::env::temp_dir();
        let mut rng = SplitMix64::new(7);
        let mut expected: BTreeMap<([u64; 4], u8), u128> = BTreeMap::new();
        let mut generated = Vec::new();
        for _ in 0..40_000 {
            let key = [rng.next_u64() % 20_000, 0, rng.next_u64() % 2, 0];
            let root = (rng.next_u64() % 3) as u8;
            let paths = u128::from(rng.next_u64() % 5 + 1) << 70;
            *expected.entry((key, root)).or_default() += paths;
            generated.push(Entry::new(NybbleBoard { planes: key }, root, paths));
        }
        for memory in [0, 1 << 30] {
            let mut scratch = Scratch::create(&dir).expect("scratch");
            let budget = Budget::of(memory);
            let mut sorter = Sorter::new(budget, || false);
            for entry in &generated {
                sorter.push(*entry, &mut scratch).expect("pushed");
            }
            let spilled = !sorter.runs.is_empty();
            assert_eq!(spilled, memory == 0);
            if spilled {
                // More runs than one merge reads: merged in passes.
                assert_eq!(budget.fan_in, 2);
                assert!(sorter.runs.len() > 4, "{} runs", sorter.runs.len());
            }
            let got: Vec<(([u64; 4], u8), u128)> = sorted(sorter, &mut scratch)
                .iter()
                .map(|e| ((e.key, e.root), e.paths()))
                .collect();
            let want: Vec<(([u64; 4], u8), u128)> = expected.clone().into_iter().collect();
            assert_eq!(got, want, "budget {memory}");
        }
    }

    /// The budget's parts add up to it, and the open runs stay within the bound.
    #[test]
    fn budgets_hold_their_buffers() {
        for memory in [1 << 20, 4 << 20, 64 << 20, 1 << 30] {
            let budget = Budget::of(memory);
            let entries = budget.entries * std::mem::size_of::<Entry>();
            assert!(
                entries + 2 * budget.io_buffer <= memory,
                "{memory}: {budget:?}"
            );
            assert!(
                (budget.fan_in + 1) * budget.io_buffer + 2 * budget.io_buffer <= memory,
                "{memory}: {budget:?}"
            );
            assert!((2..=MAX_FAN_IN).contains(&budget.fan_in), "{budget:?}");
        }
        assert_eq!(Budget::of(1 << 30).fan_in, MAX_FAN_IN);
        assert_eq!(Budget::of(4 << 20).io_buffer, 256 << 10);
    }

    /// An interruption stops a sort at its next spill.
    #[test]
    fn an_interrupted_sort_stops() {
        let mut scratch = Scratch::create(&std::env::temp_dir()).expect("scratch");
        let mut sorter = Sorter::new(Budget::of(0), || true);
        let pushed = (0..100_000u64).try_for_each(|i| {
            let key = NybbleBoard {
                planes: [i, 0, 0, 0],
            };
            sorter.push(Entry::new(key, 0, 1), &mut scratch)
        });
        assert!(matches!(pushed, Err(UniqueError::Interrupted)));
    }
}
