//! One pass of a partition: every position of the previous ply is read from its files and
//! expanded by the specialised generator on every thread; the children whose hash falls in the
//! partition's range are made and go into the partition's set, the others are only counted
//! (their hash comes from their parent's and the move: see [`super::partition`]). Threads take the
//! files' blocks in turn, so the ply is streamed once per pass and never held in memory.

use super::error::UniqueError;
use super::key::KeyCodec;
use super::partition::HashRange;
use super::ply_file::{decode_block, PlyEntry, PlyReader, RawBlock};
use super::set::{Batches, InsertError, PositionSet, ROOT_BITS};
use crate::chess::specialized::{for_each_child_in, ChildSink};
use crate::chess::NybbleBoard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a pass reads and how.
pub struct PassInput<'a> {
    /// The previous ply's files, in order.
    pub files: &'a [PathBuf],
    pub threads: usize,
    pub interrupted: fn() -> bool,
    /// Counts the parents expanded, for progress.
    pub parents_done: &'a AtomicU64,
}

#[derive(Debug)]
pub enum PassError {
    Unique(UniqueError),
    Insert(InsertError),
}

impl From<UniqueError> for PassError {
    fn from(error: UniqueError) -> PassError {
        PassError::Unique(error)
    }
}

/// The blocks of a sequence of files, handed out one at a time.
struct Blocks<'a> {
    files: std::slice::Iter<'a, PathBuf>,
    reader: Option<PlyReader>,
}

impl Blocks<'_> {
    fn next(&mut self) -> Result<Option<(RawBlock, bool, PathBuf)>, UniqueError> {
        loop {
            if let Some(reader) = &mut self.reader {
                if let Some(block) = reader.next_block()? {
                    return Ok(Some((
                        block,
                        reader.with_roots,
                        reader.path().to_path_buf(),
                    )));
                }
            }
            match self.files.next() {
                Some(path) => self.reader = Some(PlyReader::open(path)?),
                None => return Ok(None),
            }
        }
    }
}

/// How often a pass tells how far it got, and looks whether its threads are done.
const TICK: Duration = Duration::from_millis(200);
const POLL: Duration = Duration::from_millis(2);

/// The paths of a pass's children: those put in the set, and all (perft of the ply).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassPaths {
    pub in_range: u128,
    pub all: u128,
}

/// Fills `set` with the children in `range` of every position of `input`'s files, each entry
/// with its parent's paths (per root move where the set keeps values); tells `tick` how many
/// parents were expanded as it goes.
pub fn fill<const W: usize>(
    input: &PassInput,
    range: HashRange,
    set: &PositionSet<W>,
    tick: &mut dyn FnMut(u64),
) -> Result<PassPaths, PassError> {
    let blocks = Mutex::new(Blocks {
        files: input.files.iter(),
        reader: None,
    });
    let failed = AtomicBool::new(false);
    let results: Vec<Result<PassPaths, PassError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..input.threads)
            .map(|_| scope.spawn(|| expand_blocks(input, range, set, &blocks, &failed)))
            .collect();
        // Once as the pass starts, then every `TICK`.
        tick(0);
        let mut last_tick = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(POLL);
            if last_tick.elapsed() >= TICK {
                last_tick = Instant::now();
                tick(input.parents_done.load(Ordering::Relaxed));
            }
        }
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut paths = PassPaths::default();
    for result in results {
        let found = result?;
        paths.in_range += found.in_range;
        paths.all += found.all;
    }
    Ok(paths)
}

fn expand_blocks<const W: usize>(
    input: &PassInput,
    range: HashRange,
    set: &PositionSet<W>,
    blocks: &Mutex<Blocks>,
    failed: &AtomicBool,
) -> Result<PassPaths, PassError> {
    let result = expand_blocks_until_failed(input, range, set, blocks, failed);
    if result.is_err() {
        // The other threads stop at their next block.
        failed.store(true, Ordering::Relaxed);
    }
    result
}

fn expand_blocks_until_failed<const W: usize>(
    input: &PassInput,
    range: HashRange,
    set: &PositionSet<W>,
    blocks: &Mutex<Blocks>,
    failed: &AtomicBool,
) -> Result<PassPaths, PassError> {
    let codec = KeyCodec::get();
    let mut batches = Batches::new(set);
    let mut entries: Vec<PlyEntry> = Vec::new();
    let mut parents: Vec<NybbleBoard> = Vec::new();
    // Per parent: its first entry and its paths under every root.
    let mut firsts: Vec<usize> = Vec::new();
    let mut parent_paths: Vec<u128> = Vec::new();
    let mut children: Vec<(u32, u32)> = Vec::new();
    let mut paths = PassPaths::default();
    loop {
        if failed.load(Ordering::Relaxed) {
            return Ok(paths);
        }
        if (input.interrupted)() {
            return Err(UniqueError::Interrupted.into());
        }
        let next = blocks.lock().unwrap_or_else(|e| e.into_inner()).next()?;
        let Some((block, with_roots, path)) = next else {
            break;
        };
        decode_block(&block, with_roots, &path, &mut entries)?;
        drop(block);
        parents.clear();
        firsts.clear();
        parent_paths.clear();
        for (index, entry) in entries.iter().enumerate() {
            if index == 0 || entries[index - 1].key != entry.key {
                parents.push(codec.unpack(&entry.key));
                firsts.push(index);
                parent_paths.push(0);
            }
            *parent_paths.last_mut().expect("a parent") += u128::from(entry.paths);
        }
        firsts.push(entries.len());
        // Children per parent, in all and in the range: their paths are the parent's paths
        // times these counts.
        children.clear();
        children.resize(parents.len(), (0, 0));
        let mut sink = RangeSink {
            range,
            children: &mut children,
            batches: &mut batches,
            codec,
            entries: &entries,
            firsts: &firsts,
            error: None,
        };
        for_each_child_in(&parents, &mut sink);
        let error = sink.error;
        for (&(all, kept), &parent) in children.iter().zip(&parent_paths) {
            paths.all += parent * u128::from(all);
            paths.in_range += parent * u128::from(kept);
        }
        if let Some(e) = error {
            return Err(PassError::Insert(e));
        }
        input
            .parents_done
            .fetch_add(parents.len() as u64, Ordering::Relaxed);
    }
    batches.flush().map_err(PassError::Insert)?;
    Ok(paths)
}

/// Counts a batch's children per parent, and keeps those in the range: only they are made.
struct RangeSink<'a, 's, const W: usize> {
    range: HashRange,
    /// Per parent: children in all, and in the range.
    children: &'a mut [(u32, u32)],
    batches: &'a mut Batches<'s, W>,
    codec: KeyCodec,
    /// The parents' entries (per root move), and where each parent's start.
    entries: &'a [PlyEntry],
    firsts: &'a [usize],
    error: Option<InsertError>,
}

impl<const W: usize> ChildSink for RangeSink<'_, '_, W> {
    #[inline(always)]
    fn wants(&mut self, parent: usize, hash: u64) -> bool {
        self.children[parent].0 += 1;
        let wanted = self.range.contains(hash);
        self.children[parent].1 += u32::from(wanted);
        wanted
    }

    #[inline(always)]
    fn child(&mut self, parent: usize, hash: u64, child: &NybbleBoard) {
        if self.error.is_none() {
            let roots = &self.entries[self.firsts[parent]..self.firsts[parent + 1]];
            if let Err(e) = keep(self.batches, self.codec, hash, child, roots) {
                self.error = Some(e);
            }
        }
    }
}

/// Puts `child` (of partition hash `hash`) into the set through `batches`: its key alone, or an
/// entry per root move of its parent (`roots`, the parent's entries) with the parent's paths.
#[inline(never)]
fn keep<const W: usize>(
    batches: &mut Batches<W>,
    codec: KeyCodec,
    hash: u64,
    child: &NybbleBoard,
    roots: &[PlyEntry],
) -> Result<(), InsertError> {
    let key = codec.pack(child).0;
    let mut entry = [0u64; W];
    entry[..3].copy_from_slice(&key);
    if W == 3 {
        return batches.push(hash, entry);
    }
    roots.iter().try_for_each(|root| {
        if let Some(value) = entry.get_mut(3) {
            *value = root.paths << ROOT_BITS | u64::from(root.root);
        }
        batches.push(hash, entry)
    })
}
