//! The unique positions of each ply, ply after ply: the positions of ply `n` are the children
//! of the unique positions of ply `n - 1`, merged by their exact key (placement, side to move,
//! castling rights, en passant only when a capture is legal), each with its paths from the
//! root (per root move, when asked).
//!
//! A ply is computed in partitions (ranges of a hash of the key, see [`super::partition`]) so
//! that each fits the memory budget: a partition's pass streams the previous ply from disk,
//! expands it on every thread and keeps its own children in an in-memory set of exact keys.
//! The partitions are chosen from the budget and the count predicted from the plies before
//! (their growth); one that overflows its set splits in two. A kept ply goes to disk sorted and
//! prefix-coded ([`super::ply_file`]); the last ply is only counted unless its positions are
//! wanted. The children's paths over all partitions must add up to perft of the ply, which
//! every pass also counts over all children: a built-in check that the partitions cover the
//! ply exactly once.

use super::error::UniqueError;
use super::folder::{RangeCounts, RunFolder, RunIdentity};
use super::key::{KeyCodec, PackedKey};
use super::partition::HashRange;
use super::pass::{fill, PassError, PassInput};
use super::ply_file::{decode_block, PlyEntry, PlyReader, PlyWriter};
use super::set::{Batches, InsertError, PositionSet, ROOT_BITS};
use crate::chess::movegen::legal_moves;
use crate::chess::{NybbleBoard, Position};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

/// Resident bytes of the process besides an expansion's buffers and set (program, tables).
const BASE_BYTES: usize = 24 << 20;
/// Bytes a thread of a pass holds besides its batches: a decoded block and its parents.
const THREAD_BYTES: usize = 4 << 20;
/// Bytes of the file written and the file read.
const FILE_BYTES: usize = 4 << 20;
/// The smallest set, whatever the budget.
const MIN_SLOTS: usize = 1 << 12;
/// The load a partition is planned for, in percent: below the set's limit, so that a count a
/// little above the prediction still fits.
const PLANNED_LOAD_PERCENT: usize = 65;
/// The read buffer of each file while the last ply is merged for its positions.
const MERGE_BUFFER: usize = 64 << 10;

/// How an expansion runs.
#[derive(Clone, Debug)]
pub struct ExpansionOptions {
    /// Memory for the partitions' sets and the buffers, in bytes.
    pub memory_bytes: usize,
    /// Threads expanding positions.
    pub threads: usize,
    /// Where a folder of the plies goes when there is no `state_dir` (removed at the end).
    pub scratch_parent: PathBuf,
    /// A folder that keeps the plies: a run with the same folder, root and options resumes
    /// where this one stopped.
    pub state_dir: Option<PathBuf>,
    /// Keep the paths of each root move apart (for a plan's `--divide`); otherwise all paths
    /// count under root 0.
    pub by_root_move: bool,
    /// Keep the last ply's positions in `state_dir` too (where a plan's units read them).
    pub keep_last_ply: bool,
    /// Polled as the expansion goes: once it says so, the expansion stops with
    /// [`UniqueError::Interrupted`].
    pub interrupted: fn() -> bool,
}

/// The threads this machine runs at once (1 where it cannot tell).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// For an expansion nothing interrupts.
pub fn never_interrupted() -> bool {
    false
}

/// The count of one ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyCount {
    pub ply: u32,
    /// Unique positions.
    pub unique: u64,
    /// Paths from the root: perft(ply).
    pub paths: u128,
    /// Passes over the previous ply (one per partition, more where one split).
    pub passes: u32,
    /// Bytes of the ply's positions on disk (0 where only counted).
    pub bytes: u64,
    /// Seconds the ply took, over every run that computed a part of it.
    pub seconds: f64,
    /// Whether this run counted every child of the previous ply too, and found the
    /// partitions' paths adding up to that count (perft of the ply).
    pub paths_checked: bool,
}

/// Where an expansion stands, reported as it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// Within a ply: the share of its hash space done (by earlier runs too) and the share
    /// done before this run, and seconds this run spent on the ply.
    Ply {
        ply: u32,
        done: f64,
        resumed: f64,
        partition: u64,
        partitions: u64,
        seconds: f64,
    },
    Done(PlyCount),
}

/// A unique position of the last ply and its paths below each root move (root move index,
/// paths), by root index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniquePosition {
    pub key: NybbleBoard,
    pub roots: Vec<(u8, u128)>,
}

impl UniquePosition {
    pub fn paths(&self) -> u128 {
        self.roots.iter().map(|&(_, paths)| paths).sum()
    }
}

/// What receives the last ply's positions, sorted by key.
pub type LastPly<'a> = &'a mut dyn FnMut(UniquePosition) -> Result<(), UniqueError>;

/// Expands `root` to `plies` (>= 1), reporting progress and each ply's count to `on_progress`,
/// and handing the unique positions of the last ply, sorted by key, to `last_ply` if given.
pub fn expand(
    root: &Position,
    plies: u32,
    options: &ExpansionOptions,
    mut on_progress: impl FnMut(Progress),
    last_ply: Option<LastPly>,
) -> Result<Vec<PlyCount>, UniqueError> {
    if plies == 0 {
        return Err(UniqueError::NoPlies);
    }
    if options.threads == 0 {
        return Err(UniqueError::NoThreads);
    }
    let identity = RunIdentity::new(root.to_fen(), options.by_root_move);
    let folder = match &options.state_dir {
        Some(dir) => RunFolder::kept(dir, &identity)?,
        None => RunFolder::scratch(&options.scratch_parent, &identity)?,
    };
    let mut counts: Vec<PlyCount> = Vec::new();
    for ply in 1..=plies {
        let keep = ply < plies || last_ply.is_some() || options.keep_last_ply;
        let count = if ply == 1 {
            first_ply(root, &folder, options, keep)?
        } else {
            let previous = counts.last().expect("the ply before");
            let before = counts.len().checked_sub(2).map_or(1, |i| counts[i].unique);
            let mut ply_run = PlyRun {
                folder: &folder,
                options,
                ply,
                keep,
                predicted: predict(previous.unique, before, options.by_root_move),
                parents: previous.unique,
                on_progress: &mut on_progress,
            };
            ply_run.run()?
        };
        if ply > 1 && keep {
            // The positions of the ply before are no longer needed; where this ply is only
            // counted they stay, so that a deeper run in the same folder can start from them.
            folder.drop_positions(ply - 1)?;
        }
        on_progress(Progress::Done(count));
        counts.push(count);
    }
    if let Some(visit) = last_ply {
        hand_out(&folder, plies, visit)?;
    }
    Ok(counts)
}

/// Entries predicted for the next ply: this ply's times its growth from the ply before, with a
/// margin (a partition that overflows still splits).
fn predict(this: u64, before: u64, by_root_move: bool) -> u64 {
    let growth = (this as f64 / before.max(1) as f64).max(1.0);
    // Root moves multiply entries: a position reached under several roots is several.
    let roots = if by_root_move { 2.0 } else { 1.0 };
    (this as f64 * growth * 1.1 * roots) as u64
}

fn first_ply(
    root: &Position,
    folder: &RunFolder,
    options: &ExpansionOptions,
    keep: bool,
) -> Result<PlyCount, UniqueError> {
    let start = Instant::now();
    let codec = KeyCodec::get();
    let mut entries: Vec<PlyEntry> = legal_moves(root)
        .iter()
        .enumerate()
        .map(|(index, &m)| PlyEntry {
            key: codec.pack(&NybbleBoard::from_position(&root.play(m))),
            // A position has at most 218 legal moves: the index fits a byte.
            root: if options.by_root_move { index as u8 } else { 0 },
            paths: 1,
        })
        .collect();
    entries.sort_unstable_by_key(|e| (e.key, e.root));
    let done = folder.done_ranges(1)?;
    let counts = match done.first() {
        Some(&(HashRange::ALL, counts)) if counts.kept || !keep => counts,
        _ => {
            folder.create_ply_dir(1)?;
            let mut counts = RangeCounts {
                unique: entries.len() as u64,
                entries: entries.len() as u64,
                paths: entries.len() as u128,
                bytes: 0,
                kept: keep,
                passes: 1,
                seconds: 0.0,
            };
            if keep {
                let path = folder.positions_file(1, HashRange::ALL);
                let mut writer = PlyWriter::create(&path, options.by_root_move)?;
                entries.iter().try_for_each(|&e| writer.push(e))?;
                writer.finish()?;
                counts.bytes = file_bytes(&path)?;
            }
            counts.seconds = start.elapsed().as_secs_f64();
            folder.record(1, HashRange::ALL, &counts)?;
            counts
        }
    };
    Ok(PlyCount {
        ply: 1,
        unique: counts.unique,
        paths: counts.paths,
        passes: counts.passes,
        bytes: counts.bytes,
        seconds: counts.seconds,
        paths_checked: true,
    })
}

fn file_bytes(path: &std::path::Path) -> Result<u64, UniqueError> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| UniqueError::io(path, e))
}

/// One ply's partitions, computed where they are missing.
struct PlyRun<'a, P> {
    folder: &'a RunFolder,
    options: &'a ExpansionOptions,
    ply: u32,
    keep: bool,
    predicted: u64,
    parents: u64,
    on_progress: &'a mut P,
}

impl<P: FnMut(Progress)> PlyRun<'_, P> {
    fn run(&mut self) -> Result<PlyCount, UniqueError> {
        if self.keep {
            self.run_with::<4>()
        } else {
            self.run_with::<3>()
        }
    }

    fn run_with<const W: usize>(&mut self) -> Result<PlyCount, UniqueError> {
        let ply = self.ply;
        let folder = self.folder;
        let mut done: Vec<(HashRange, RangeCounts)> = folder.done_ranges(ply)?;
        // A range counted without its positions is done again where they are wanted.
        done.retain(|(_, counts)| counts.kept || !self.keep);
        let done_ranges: Vec<HashRange> = done.iter().map(|&(range, _)| range).collect();
        let resumed: f64 = done_ranges.iter().map(|r| r.share()).sum();
        let (partitions, slots) = cut::<W>(
            self.predicted,
            self.options.memory_bytes,
            self.options.threads,
            1,
        );
        let mut pending: Vec<HashRange> = Vec::new();
        for gap in HashRange::ALL.gaps(&done_ranges) {
            for index in 0..partitions {
                let part = HashRange::nth_of(index, partitions);
                let piece = HashRange {
                    start: part.start.max(gap.start),
                    end: part.end.min(gap.end),
                };
                if !piece.is_empty() {
                    pending.push(piece);
                }
            }
        }
        pending.reverse();
        let files = if pending.is_empty() {
            Vec::new()
        } else {
            folder.create_ply_dir(ply)?;
            self.previous_files()?
        };
        let start = Instant::now();
        let mut share_done = resumed;
        let mut all_children: Option<u128> = None;
        let mut computed_paths = 0u128;
        let mut index = 0u64;
        let total = pending.len() as u64;
        while let Some(range) = pending.pop() {
            let parents_done = AtomicU64::new(0);
            let input = PassInput {
                files: &files,
                threads: self.options.threads,
                interrupted: self.options.interrupted,
                parents_done: &parents_done,
            };
            let parents = self.parents.max(1) as f64;
            let on_progress = &mut *self.on_progress;
            let mut tick = |expanded: u64| {
                on_progress(Progress::Ply {
                    ply,
                    done: share_done + range.share() * (expanded as f64 / parents).min(1.0),
                    resumed,
                    partition: index,
                    partitions: total,
                    seconds: start.elapsed().as_secs_f64(),
                });
            };
            let pass_start = Instant::now();
            let set = PositionSet::<W>::new(slots);
            match fill(&input, range, &set, &mut tick) {
                Ok(paths) => {
                    if let Some(all) = all_children {
                        debug_assert_eq!(all, paths.all);
                    }
                    all_children = Some(paths.all);
                    computed_paths += paths.in_range;
                    let counts = self.finish_range(range, set, paths.in_range, pass_start)?;
                    folder.record(ply, range, &counts)?;
                    done.push((range, counts));
                    share_done += range.share();
                    index += 1;
                }
                Err(PassError::Insert(InsertError::Full)) => {
                    // More positions than planned: the range is done again in two halves.
                    drop(set);
                    let (low, high) = range.halves().ok_or(UniqueError::PathsOverflow { ply })?;
                    pending.push(high);
                    pending.push(low);
                }
                Err(PassError::Insert(InsertError::PathsOverflow)) => {
                    return Err(UniqueError::PathsOverflow { ply })
                }
                Err(PassError::Unique(error)) => return Err(error),
            }
        }
        let mut count = PlyCount {
            ply,
            unique: 0,
            paths: 0,
            passes: 0,
            bytes: 0,
            seconds: 0.0,
            paths_checked: false,
        };
        for (_, counts) in &done {
            count.unique += counts.unique;
            count.paths += counts.paths;
            count.passes += counts.passes;
            count.bytes += counts.bytes;
            count.seconds += counts.seconds;
        }
        if let Some(all) = all_children {
            // Every child's paths were counted by each pass: the partitions of this run and of
            // the runs before must add up to them.
            if all != count.paths {
                return Err(UniqueError::PathsMismatch {
                    ply,
                    partitions: count.paths,
                    children: all,
                });
            }
            count.paths_checked = true;
            debug_assert!(computed_paths <= all);
        }
        Ok(count)
    }

    /// The positions files of the ply before, in range order.
    fn previous_files(&self) -> Result<Vec<PathBuf>, UniqueError> {
        positions_files(self.folder, self.ply - 1)
    }

    /// Writes the set's positions (when kept) and gives the range's counts.
    fn finish_range<const W: usize>(
        &self,
        range: HashRange,
        mut set: PositionSet<W>,
        paths: u128,
        start: Instant,
    ) -> Result<RangeCounts, UniqueError> {
        let mut counts = RangeCounts {
            unique: set.entries(),
            entries: set.entries(),
            paths,
            bytes: 0,
            kept: W == 4,
            passes: 1,
            seconds: 0.0,
        };
        if W == 4 {
            let path = self.folder.positions_file(self.ply, range);
            let mut writer = PlyWriter::create(&path, self.options.by_root_move)?;
            set.for_each_sorted(self.options.threads, |entry| {
                writer.push(PlyEntry {
                    key: PackedKey([entry[0], entry[1], entry[2]]),
                    root: (entry[3] & ((1 << ROOT_BITS) - 1)) as u8,
                    paths: entry[3] >> ROOT_BITS,
                })
            })?;
            drop(set);
            let totals = writer.finish()?;
            if totals.paths != paths {
                return Err(UniqueError::PathsMismatch {
                    ply: self.ply,
                    partitions: totals.paths,
                    children: paths,
                });
            }
            counts.unique = totals.unique;
            counts.bytes = file_bytes(&path)?;
        }
        counts.seconds = start.elapsed().as_secs_f64();
        Ok(counts)
    }
}

/// The partitions (at least `at_least`) of a ply of `predicted` entries of `W` words within
/// `memory_bytes` on `threads` threads, and the set slots of each.
fn cut<const W: usize>(
    predicted: u64,
    memory_bytes: usize,
    threads: usize,
    at_least: u64,
) -> (u64, usize) {
    let budget = slots_for::<W>(memory_bytes, threads);
    let per_partition = (budget * PLANNED_LOAD_PERCENT / 100).max(1) as u64;
    let partitions = predicted.div_ceil(per_partition).max(at_least.max(1));
    // A ply smaller than the budget gets a set of its size: a set is swept whole when its
    // positions are written.
    let wanted = predicted.div_ceil(partitions) as usize * 100 / PLANNED_LOAD_PERCENT;
    (partitions, wanted.clamp(MIN_SLOTS, budget))
}

/// How the counted ply after `last` is cut into partitions (at least `at_least`) that each fit
/// `memory_bytes` on `threads` threads, predicted from the growth since the ply before
/// (`before`), as [`expand`] cuts it: the partitions and the set slots of each.
pub fn counted_ply_partitions(
    last: &PlyCount,
    before: u64,
    memory_bytes: usize,
    threads: usize,
    at_least: u64,
) -> (u64, usize) {
    cut::<3>(
        predict(last.unique, before, false),
        memory_bytes,
        threads,
        at_least,
    )
}

/// The positions files of `ply` in `folder`, in range order: an error unless they cover it.
fn positions_files(folder: &RunFolder, ply: u32) -> Result<Vec<PathBuf>, UniqueError> {
    let done = folder.done_ranges(ply)?;
    let ranges: Vec<HashRange> = done.iter().map(|&(r, _)| r).collect();
    if done.is_empty()
        || !HashRange::ALL.gaps(&ranges).is_empty()
        || done.iter().any(|(_, c)| !c.kept)
    {
        return Err(UniqueError::corrupt(
            &folder.ply_dir(ply),
            "the positions of this ply are not all there: remove the folder to start again",
        ));
    }
    Ok(ranges
        .into_iter()
        .map(|range| folder.positions_file(ply, range))
        .collect())
}

/// The positions files of the last ply, `ply`, that an expansion of `root` with
/// `keep_last_ply` left in its `state_dir`, in range order.
pub fn kept_ply_files(
    root: &Position,
    state_dir: &std::path::Path,
    ply: u32,
    by_root_move: bool,
) -> Result<Vec<PathBuf>, UniqueError> {
    let folder = RunFolder::kept(state_dir, &RunIdentity::new(root.to_fen(), by_root_move))?;
    positions_files(&folder, ply)
}

/// Bytes of the process besides a set of `W`-word entries, with `threads` threads.
pub(super) fn buffer_bytes<const W: usize>(threads: usize) -> usize {
    BASE_BYTES + FILE_BYTES + threads * (THREAD_BYTES + Batches::<W>::BYTES)
}

/// Bytes of the set that [`smallest_budget`] leaves: below it a ply needs so many passes (each
/// expanding the whole ply before) that the run takes hours for no real saving.
const SMALLEST_SET_BYTES: usize = 8 << 20;

/// The smallest memory budget worth running with `threads` threads: the process, its buffers
/// and a set of [`SMALLEST_SET_BYTES`].
pub fn smallest_budget(threads: usize) -> usize {
    buffer_bytes::<4>(threads) + SMALLEST_SET_BYTES
}

/// Set slots that `memory_bytes` leaves after the buffers of `threads` threads.
fn slots_for<const W: usize>(memory_bytes: usize, threads: usize) -> usize {
    let buffers = buffer_bytes::<W>(threads);
    (memory_bytes.saturating_sub(buffers) / PositionSet::<W>::ENTRY_BYTES).max(MIN_SLOTS)
}

/// Merges the positions files of `ply` in key order and hands each position to `visit`.
fn hand_out(folder: &RunFolder, ply: u32, visit: LastPly) -> Result<(), UniqueError> {
    let codec = KeyCodec::get();
    let mut readers = Vec::new();
    for (range, _) in folder.done_ranges(ply)? {
        readers.push(BlockCursor::open(&folder.positions_file(ply, range))?);
    }
    let mut heap = BinaryHeap::new();
    for (index, reader) in readers.iter_mut().enumerate() {
        if let Some(entry) = reader.next()? {
            heap.push(Reverse(((entry.key, entry.root), index, entry.paths)));
        }
    }
    let mut current: Option<(PackedKey, Vec<(u8, u128)>)> = None;
    while let Some(Reverse(((key, root), index, paths))) = heap.pop() {
        if let Some(entry) = readers[index].next()? {
            heap.push(Reverse(((entry.key, entry.root), index, entry.paths)));
        }
        match &mut current {
            Some((at, roots)) if *at == key => roots.push((root, u128::from(paths))),
            _ => {
                if let Some((done, roots)) = current.take() {
                    visit(UniquePosition {
                        key: codec.unpack(&done),
                        roots,
                    })?;
                }
                current = Some((key, vec![(root, u128::from(paths))]));
            }
        }
    }
    match current {
        Some((key, roots)) => visit(UniquePosition {
            key: codec.unpack(&key),
            roots,
        }),
        None => Ok(()),
    }
}

/// The entries of one file, a block at a time.
struct BlockCursor {
    reader: PlyReader,
    block: Vec<PlyEntry>,
    at: usize,
}

impl BlockCursor {
    fn open(path: &std::path::Path) -> Result<BlockCursor, UniqueError> {
        Ok(BlockCursor {
            reader: PlyReader::open_with_buffer(path, MERGE_BUFFER)?,
            block: Vec::new(),
            at: 0,
        })
    }

    fn next(&mut self) -> Result<Option<PlyEntry>, UniqueError> {
        while self.at == self.block.len() {
            let Some(raw) = self.reader.next_block()? else {
                return Ok(None);
            };
            let path = self.reader.path().to_path_buf();
            decode_block(&raw, self.reader.with_roots, &path, &mut self.block)?;
            self.at = 0;
        }
        self.at += 1;
        Ok(Some(self.block[self.at - 1]))
    }
}
