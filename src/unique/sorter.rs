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

/// Buffer of each run file while writing or merging.
const IO_BUFFER: usize = 1 << 20;
/// The fewest entries the memory buffer holds, whatever the budget.
const MIN_ENTRIES: usize = 1 << 12;

pub struct Sorter {
    entries: Vec<Entry>,
    capacity: usize,
    runs: Vec<PathBuf>,
}

impl Sorter {
    /// A sorter whose buffer takes at most `memory_bytes` (but at least a few thousand entries).
    pub fn new(memory_bytes: usize) -> Sorter {
        Sorter {
            entries: Vec::new(),
            capacity: (memory_bytes / std::mem::size_of::<Entry>()).max(MIN_ENTRIES),
            runs: Vec::new(),
        }
    }

    pub fn push(&mut self, entry: Entry, scratch: &mut Scratch) -> Result<(), UniqueError> {
        if self.entries.len() == self.entries.capacity() {
            if self.entries.len() >= self.capacity {
                self.compact();
                // Merging freed less than half the buffer: this part goes to disk.
                if self.entries.len() > self.capacity / 2 {
                    self.spill(scratch)?;
                }
            }
            // Grow by doubling, never past the budget.
            let wanted = (self.entries.len() * 2).clamp(MIN_ENTRIES, self.capacity);
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
        let path = scratch.file("run");
        let file = File::create(&path).map_err(|e| UniqueError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(IO_BUFFER, file);
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

    /// Every entry pushed, sorted, one per (key, root).
    pub fn finish(mut self, scratch: &mut Scratch) -> Result<SortedEntries, UniqueError> {
        self.compact();
        if self.runs.is_empty() {
            return Ok(SortedEntries::Memory(self.entries.into_iter()));
        }
        if !self.entries.is_empty() {
            self.spill(scratch)?;
        }
        self.entries = Vec::new();
        let mut readers = Vec::with_capacity(self.runs.len());
        let mut heap = BinaryHeap::with_capacity(self.runs.len());
        for (index, path) in self.runs.iter().enumerate() {
            let file = File::open(path).map_err(|e| UniqueError::io(path, e))?;
            let mut reader = RunReader {
                input: BufReader::with_capacity(IO_BUFFER, file),
                path: path.clone(),
            };
            if let Some(entry) = reader.next()? {
                heap.push(Reverse(HeapEntry { entry, run: index }));
            }
            readers.push(reader);
        }
        Ok(SortedEntries::Runs(RunMerge {
            readers,
            heap,
            _runs: self.runs,
        }))
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
    /// The run files, deleted with the scratch folder.
    _runs: Vec<PathBuf>,
}

impl RunMerge {
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
        for budget in [0, 1 << 30] {
            let mut scratch = Scratch::create(&dir).expect("scratch");
            let mut sorter = Sorter::new(budget);
            for entry in &generated {
                sorter.push(*entry, &mut scratch).expect("pushed");
            }
            let spilled = !sorter.runs.is_empty();
            assert_eq!(spilled, budget == 0);
            let got: Vec<(([u64; 4], u8), u128)> = sorted(sorter, &mut scratch)
                .iter()
                .map(|e| ((e.key, e.root), e.paths()))
                .collect();
            let want: Vec<(([u64; 4], u8), u128)> = expected.clone().into_iter().collect();
            assert_eq!(got, want, "budget {budget}");
        }
    }
}
