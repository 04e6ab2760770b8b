//! The device against its CPU twin (`vkperft::gpu::twin`): each search stage run on the same
//! buffers on both, and whole runs scheduled by the same scheduler through either executor.
//! Where the device leaves an order free (the slots an expand hands out), children are
//! compared per parent as sets; everything else must be equal.

use crate::common::{silent_control, NARROW_ROOT_FEN};
use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard, OnceLock};
use vkperft::chess::{Position, Zobrist};
use vkperft::gpu::layouts::{inner_positions, GpuU128, Level, StepConstants};
use vkperft::gpu::pipelines::Stage;
use vkperft::gpu::scheduler::Scheduler;
use vkperft::gpu::shader_layout::{
    CHILD_COUNT_MASK, CHILD_FLAG_DUPLICATE, CHILD_FLAG_RESOLVED, COMPACT_LEAF, DEDUP_CLEAR,
    DEDUP_RESOLVE, LEAF_ENTRY_DUPLICATE,
};
use vkperft::gpu::twin::buffers::{board_of, position_of, TwinBuffers};
use vkperft::gpu::twin::{dedup, expand, leaf, next_level, upsweep, TwinExecutor, TwinTable};
use vkperft::gpu::{GpuOptions, ScheduleStats, Submissions, VulkanBackend};
use vkperft::tt::{TranspositionTable, TtConfig, TtMode};

/// A device of its own: no table of another test's run in its parameters.
fn device() -> MutexGuard<'static, VulkanBackend> {
    static BACKEND: OnceLock<Mutex<VulkanBackend>> = OnceLock::new();
    BACKEND
        .get_or_init(|| Mutex::new(VulkanBackend::new(&GpuOptions::default()).expect("a device")))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const PROMOTIONS: &str = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";

/// Buffers of `capacity` positions whose level 0 holds `fens`.
fn level_of(fens: &[&str], capacity: u32) -> TwinBuffers {
    let inner = inner_positions(u64::from(capacity)) as u32;
    let mut buffers = TwinBuffers::new(capacity, inner);
    for (board, fen) in buffers.boards.iter_mut().zip(fens) {
        *board = board_of(&Position::from_fen(fen).expect("a legal position"));
    }
    buffers.control.capacity = capacity;
    buffers.control.inner_capacity = inner;
    buffers.control.max_groups_x = 4;
    buffers.control.levels[0] = Level::new(0, fens.len() as u32, 4);
    buffers
}

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    KIWIPETE,
    ENDGAME,
    PROMOTIONS,
];

fn step(level: u32, remaining: u32, flags: u32) -> StepConstants {
    StepConstants {
        level,
        remaining,
        flags,
        first_invocation: 0,
    }
}

/// The keys both sides hash with.
fn zobrist() -> Zobrist {
    Zobrist::new(0x7769)
}

/// Runs `stage` on the device over `input`.
fn on_device(
    stage: Stage,
    step: &StepConstants,
    invocations: u32,
    input: &TwinBuffers,
) -> TwinBuffers {
    device()
        .runner_mut()
        .run_stage(stage, step, invocations, input, &zobrist())
        .expect("the stage runs")
}

/// The children each position of level `level` was given: boards, or leaf entries' moves.
fn children_by_parent(buffers: &TwinBuffers, level: u32, compact: bool) -> Vec<HashSet<[u64; 4]>> {
    let level = buffers.control.levels[level as usize];
    (level.offset..level.offset + level.count)
        .map(|index| {
            let range = buffers.children[index as usize];
            (range.first..range.first + range.count)
                .map(|child| {
                    if compact {
                        let entry = buffers.leaf_entry(child);
                        assert_eq!(entry.parent, index);
                        [u64::from(entry.play), 0, 0, 0]
                    } else {
                        buffers.boards[child as usize].planes
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn expand_writes_the_children_its_twin_writes() {
    for flags in [0, COMPACT_LEAF] {
        let input = level_of(&FENS, 1 << 12);
        let step = step(0, 3, flags);
        let gpu = on_device(Stage::Expand, &step, 64, &input);
        let mut twin = input.clone();
        expand::expand(&mut twin, None, &step, 64);
        assert_eq!(gpu.control, twin.control, "flags {flags}");
        let compact = flags != 0;
        assert_eq!(
            children_by_parent(&gpu, 0, compact),
            children_by_parent(&twin, 0, compact),
            "flags {flags}"
        );
        if compact {
            assert_eq!(gpu.counts[..4], twin.counts[..4]);
        }
        assert_eq!(gpu.work, twin.work, "flags {flags}");
    }
}

#[test]
fn expand_and_next_level_flag_an_overflow_as_their_twins_do() {
    // Room for 64 positions before the leaf level: the first three positions' children fit
    // in no order that leaves room for all.
    let input = level_of(&FENS, 256);
    let expand_step = step(0, 4, 0);
    let gpu = on_device(Stage::Expand, &expand_step, 64, &input);
    let mut twin = input.clone();
    expand::expand(&mut twin, None, &expand_step, 64);
    assert_eq!(twin.control.overflow, 1);
    assert_eq!(gpu.control, twin.control);
    assert_eq!(gpu.work, twin.work);
    let gpu = on_device(Stage::NextLevel, &expand_step, 1, &twin);
    next_level::next_level(&mut twin, &expand_step);
    assert_eq!(gpu.control, twin.control);
}

#[test]
fn next_level_records_the_appended_level_as_its_twin_does() {
    let mut input = level_of(&FENS, 1 << 12);
    expand::expand(&mut input, None, &step(0, 3, 0), 64);
    let next = step(0, 3, 0);
    let gpu = on_device(Stage::NextLevel, &next, 1, &input);
    next_level::next_level(&mut input, &next);
    assert_eq!(gpu.control, input.control);
}

#[test]
fn the_leaf_counts_items_and_leaf_entries_as_its_twin_does() {
    for remaining in [1, 2] {
        let input = level_of(&FENS, 1 << 12);
        let leaf_step = step(0, remaining, 0);
        let gpu = on_device(Stage::Leaf, &leaf_step, 64, &input);
        let mut twin = input.clone();
        leaf::leaf(&mut twin, None, &leaf_step, 64);
        assert_eq!(gpu.counts[..4], twin.counts[..4], "remaining {remaining}");
        assert_eq!(gpu.work, twin.work, "remaining {remaining}");
    }
    // A compact leaf level: the entries of the positions' children, counted into them.
    let mut input = level_of(&FENS, 1 << 12);
    expand::expand(&mut input, None, &step(0, 3, COMPACT_LEAF), 64);
    next_level::next_level(&mut input, &step(0, 3, 0));
    input.work = Default::default();
    let leaf_step = step(1, 2, COMPACT_LEAF);
    let invocations = input.control.levels[1].count;
    let gpu = on_device(Stage::Leaf, &leaf_step, invocations, &input);
    let mut twin = input.clone();
    leaf::leaf(&mut twin, None, &leaf_step, invocations);
    assert_eq!(gpu.counts[..4], twin.counts[..4]);
    assert_eq!(gpu.children, twin.children);
    assert_eq!(gpu.work, twin.work);
}

#[test]
fn upsweep_sums_children_as_its_twin_does() {
    let mut input = level_of(&FENS, 1 << 12);
    expand::expand(&mut input, None, &step(0, 3, 0), 64);
    next_level::next_level(&mut input, &step(0, 3, 0));
    let children = input.control.levels[1].count;
    leaf::leaf(&mut input, None, &step(1, 2, 0), children);
    let sweep = step(0, 3, 0);
    let gpu = on_device(Stage::Upsweep, &sweep, 64, &input);
    let mut twin = input.clone();
    upsweep::upsweep(&mut twin, None, &sweep, 64);
    assert_eq!(gpu.counts[..4], twin.counts[..4]);
    // The start position's perft(3), summed from its children's counts.
    assert_eq!(u128::from(twin.counts[0]), 8_902);
}

/// The non-empty entries of a table's words (`TwinTable::words`), the first `compact_words`
/// words compact entries of one word each, then fast entries of two words and exact entries of
/// eight, each kind sorted: the device may fill a bucket's ways in another order when two
/// stores meet in one bucket.
fn entries((fast, exact): (Vec<u64>, Vec<u64>), compact_words: usize) -> [Vec<Vec<u64>>; 3] {
    let sorted = |words: &[u64], size: usize| {
        let mut entries: Vec<Vec<u64>> = words
            .chunks(size)
            .filter(|entry| entry.iter().any(|&word| word != 0))
            .map(<[u64]>::to_vec)
            .collect();
        entries.sort();
        entries
    };
    let (compact, fast) = fast.split_at(compact_words);
    [sorted(compact, 1), sorted(fast, 2), sorted(&exact, 8)]
}

/// The table variants of the leaf, upsweep and expand against their twin (`TwinTable`, the
/// CPU's table), in every mode and with a fast table split by depth (half its lines compact),
/// over the start position's second and third plies (the third as leaf entries, its
/// transpositions marked by dedup): the twin's table seeded by a leaf over half of the third
/// ply and loaded into the device's, then on both the leaf over the whole ply (hits and
/// misses, stores: in compact buckets when split), the duplicates resolved, upsweep of the
/// second ply (stores) and expand of the second ply (every position a hit): counts, fast
/// counts, children, flags and work equal, and both tables holding the same entries after each
/// stage. The table is large enough that no store replaces another key's entry (asserted):
/// then the order in which the device's invocations store and probe cannot change what they
/// find.
#[test]
fn the_table_stages_probe_and_store_as_their_twin_does() {
    let mut gpu = device();
    let keys = zobrist();
    let lines = 1 << 20;
    let variants = [
        (TtMode::Fast, 0),
        (TtMode::Verified, 0),
        (TtMode::Certify, 0),
        (TtMode::Fast, lines / 2),
    ];
    for (mode, compact_lines) in variants {
        let config = TtConfig::new(mode, lines as usize * 64);
        gpu.prepare_table(&config, &keys).expect("the table fits");
        let table = if compact_lines == 0 {
            let table = TranspositionTable::new(&config).expect("the table fits");
            TwinTable::new(table, zobrist())
        } else {
            gpu.runner_mut()
                .share_compact_lines(compact_lines)
                .expect("the table restarts");
            let deeper = TtConfig::new(mode, (lines - compact_lines) as usize * 64);
            let table = TranspositionTable::new(&deeper).expect("the table fits");
            TwinTable::split(table, compact_lines, zobrist())
        };
        let certify = table.certifies();
        let mut input = three_plies(true);
        let [second, third] = [2, 3].map(|level| input.control.levels[level]);
        let leaves = step(3, 2, COMPACT_LEAF);
        dedup::dedup(&mut input, &keys, certify, &leaves, third.count);
        input.work = Default::default();
        let mut seeded = input.clone();
        leaf::leaf(&mut seeded, Some(&table), &leaves, third.count / 2);
        gpu.runner_mut()
            .load_twin_table(&table)
            .expect("the same configuration and split");
        let stages = [
            (Stage::Leaf, leaves, third.count),
            (
                Stage::Dedup,
                step(3, 2, COMPACT_LEAF | DEDUP_RESOLVE),
                third.count,
            ),
            (Stage::Upsweep, step(2, 3, COMPACT_LEAF), second.count),
            (Stage::Expand, step(2, 3, 0), second.count),
        ];
        for (stage, step, invocations) in stages {
            let context = format!("{mode:?} with {compact_lines} compact lines, {stage:?}");
            let on_gpu = gpu
                .runner_mut()
                .run_stage(stage, &step, invocations, &input, &keys)
                .expect("the stage runs");
            let mut twin = input.clone();
            let twin_table = Some(&table);
            match stage {
                Stage::Leaf => leaf::leaf(&mut twin, twin_table, &step, invocations),
                Stage::Dedup => dedup::dedup(&mut twin, &keys, certify, &step, invocations),
                Stage::Upsweep => upsweep::upsweep(&mut twin, twin_table, &step, invocations),
                _ => expand::expand(&mut twin, twin_table, &step, invocations),
            }
            assert_eq!(on_gpu.counts, twin.counts, "{context}");
            assert_eq!(on_gpu.fast_counts, twin.fast_counts, "{context}");
            assert_eq!(on_gpu.control, twin.control, "{context}");
            assert_eq!(on_gpu.work, twin.work, "{context}");
            let flags = |buffers: &TwinBuffers| -> Vec<u32> {
                (second.offset..second.offset + second.count)
                    .map(|index| buffers.children[index as usize].count & !CHILD_COUNT_MASK)
                    .collect()
            };
            assert_eq!(flags(&on_gpu), flags(&twin), "{context}");
            let stored = gpu
                .runner()
                .stored_table_words()
                .expect("the table reads back");
            assert_eq!(
                entries(stored, compact_words(compact_lines)),
                entries(table.words(), compact_words(compact_lines)),
                "{context}"
            );
            input = twin;
            input.work = Default::default();
        }
        // Upsweep stored every second-ply position: expand finds each in the table, with
        // the start position's perft(5) below them.
        let positions = second.offset..second.offset + second.count;
        let resolved = positions
            .clone()
            .filter(|&index| input.children[index as usize].count & CHILD_FLAG_RESOLVED != 0);
        assert_eq!(resolved.count() as u32, second.count, "{mode:?}");
        let leaves: u128 = positions
            .map(|index| u128::from(input.counts[index as usize]))
            .sum();
        assert_eq!(leaves, 4_865_609, "{mode:?}");
        let total = table.snapshot().total;
        assert_eq!(total.overwrites, 0, "{mode:?}");
        if compact_lines > 0 {
            // The leaf's stores went to the compact lines, upsweep's to the lines after them.
            let (words, _) = table.words();
            let (compact, deeper) = words.split_at(compact_words(compact_lines));
            assert!(compact.iter().any(|&word| word != 0));
            assert!(deeper.iter().any(|&word| word != 0));
        }
    }
    gpu.prepare_table(&TtConfig::new(TtMode::Off, 0), &keys)
        .expect("no table");
}

/// Words of `compact_lines` compact lines.
fn compact_words(compact_lines: u64) -> usize {
    compact_lines as usize * 8
}

/// The start position's levels down to three plies (8,902 positions, 5,362 distinct) as the
/// twin expands them in a chunk five plies deep, the last as leaf entries if `compact`, with
/// the TT hashes the expands before a deduplicated level hand on.
fn three_plies(compact: bool) -> TwinBuffers {
    let mut buffers = level_of(&[FENS[0]], 1 << 16);
    let zobrist = zobrist();
    for level in 0..3 {
        let flags = if compact && level == 2 {
            COMPACT_LEAF
        } else {
            0
        };
        let count = buffers.control.levels[level as usize].count;
        expand::expand(&mut buffers, None, &step(level, 5 - level, flags), count);
        next_level::next_level(&mut buffers, &step(level, 5 - level, 0));
    }
    // Hashed: the leaf entries' parents, or the positions themselves.
    let hashed = if compact { 2 } else { 3 };
    let level = buffers.control.levels[hashed];
    for index in level.offset..level.offset + level.count {
        let position = position_of(buffers.boards[index as usize]);
        let hash = zobrist.hash(&position) ^ zobrist.depth_key(5 - hashed as u32);
        buffers.hashes[index as usize] = GpuU128::from(hash);
    }
    buffers.work = Default::default();
    buffers
}

/// The level's positions each with the index of the one it counts as: itself, or the first
/// occurrence dedup marked it a duplicate of; each checked to be the same position in `input`
/// (a duplicate leaf entry keeps no move).
fn first_occurrences(
    buffers: &TwinBuffers,
    input: &TwinBuffers,
    level: u32,
    compact: bool,
) -> Vec<u32> {
    let level = buffers.control.levels[level as usize];
    let board = |index: u32| {
        if compact {
            board_of(&input.entry_position(input.leaf_entry(index)))
        } else {
            input.boards[index as usize]
        }
    };
    let first_of = |index: u32| {
        if compact {
            let play = buffers.leaf_entry(index).play;
            (play & LEAF_ENTRY_DUPLICATE != 0)
                .then(|| level.offset + (play & !LEAF_ENTRY_DUPLICATE))
        } else {
            let range = buffers.children[index as usize];
            (range.count & CHILD_FLAG_DUPLICATE != 0).then_some(range.first)
        }
    };
    (level.offset..level.offset + level.count)
        .map(|index| {
            let Some(first) = first_of(index) else {
                return index;
            };
            assert_eq!(
                first_of(first),
                None,
                "{index} -> {first}: a first occurrence"
            );
            assert_eq!(
                board(first),
                board(index),
                "{index} -> {first}: the same position"
            );
            first
        })
        .collect()
}

/// Dedup marks the same transpositions on the device as its twin does, each duplicate pointing
/// at an equal position that is searched (which of them is first is the device's choice).
#[test]
fn dedup_marks_the_transpositions_its_twin_marks() {
    for compact in [false, true] {
        let input = three_plies(compact);
        let flags = if compact { COMPACT_LEAF } else { 0 };
        let insert = step(3, 2, flags);
        let count = input.control.levels[3].count;
        assert_eq!(count, 8_902);
        let gpu = on_device(Stage::Dedup, &insert, count, &input);
        let mut twin = input.clone();
        dedup::dedup(&mut twin, &zobrist(), false, &insert, count);
        assert_eq!(twin.work.duplicates, 8_902 - 5_362, "compact {compact}");
        assert_eq!(gpu.work, twin.work, "compact {compact}");
        for buffers in [&gpu, &twin] {
            let firsts = first_occurrences(buffers, &input, 3, compact);
            let searched: HashSet<u32> = firsts.into_iter().collect();
            assert_eq!(searched.len(), 5_362, "compact {compact}");
        }
        // Clearing empties the level's slots as the twin does.
        let clear = step(3, 2, flags | DEDUP_CLEAR);
        let gpu = on_device(Stage::Dedup, &clear, count, &twin);
        dedup::dedup(&mut twin, &zobrist(), false, &clear, count);
        assert_eq!(gpu.dedup_set, twin.dedup_set, "compact {compact}");
        assert!(twin.dedup_set.iter().all(|&slot| slot == 0));
    }
}

/// After the leaf, each duplicate leaf entry adds its first occurrence's count into its own
/// parent, on the device as in the twin: every parent then has its perft(3), and the 400
/// parents two plies deep the start position's perft(5).
#[test]
fn dedup_resolves_duplicate_leaf_entries_as_its_twin_does() {
    let mut input = three_plies(true);
    let count = input.control.levels[3].count;
    let zobrist = zobrist();
    dedup::dedup(
        &mut input,
        &zobrist,
        false,
        &step(3, 2, COMPACT_LEAF),
        count,
    );
    leaf::leaf(&mut input, None, &step(3, 2, COMPACT_LEAF), count);
    let resolve = step(3, 2, COMPACT_LEAF | DEDUP_RESOLVE);
    let gpu = on_device(Stage::Dedup, &resolve, count, &input);
    let mut twin = input.clone();
    dedup::dedup(&mut twin, &zobrist, false, &resolve, count);
    assert_eq!(gpu.counts, twin.counts);
    let parents = twin.control.levels[2];
    let leaves: u128 = (parents.offset..parents.offset + parents.count)
        .map(|index| u128::from(twin.counts[index as usize]))
        .sum();
    assert_eq!(leaves, 4_865_609);
}

/// One scheduler over the device and over the twin, chunks submitted whole (so nothing
/// depends on timing), at a budget where chunks overflow and items are split: the same counts,
/// the same decisions and the same work counters (but the device's submissions, dispatches and
/// waits, which the twin does not make alike).
#[test]
fn the_scheduler_decides_and_counts_alike_on_the_device_and_its_twin() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(40 << 10),
        submissions: Submissions::Whole,
        ..GpuOptions::default()
    })
    .expect("the device opens");
    let (mut overflows, mut host_splits) = (0, 0);
    for (fen, depth) in [(FENS[0], 5), (NARROW_ROOT_FEN, 6), (ENDGAME, 5)] {
        let pos = Position::from_fen(fen).expect("a legal position");
        let on_gpu = gpu
            .divide(&pos, depth, &silent_control())
            .expect("the device runs");
        let mut scheduler = Scheduler::new(Submissions::Whole);
        let mut twin = TwinExecutor::new(gpu.runner().capacity(), 256);
        let on_twin = scheduler
            .divide(&mut twin, &pos, depth, &silent_control())
            .expect("the twin runs");
        assert_eq!(on_gpu, on_twin, "{fen}");
        let decisions = |stats: ScheduleStats| {
            (
                stats.chunks,
                stats.overflows,
                stats.host_splits,
                stats.whole_chunks,
            )
        };
        let gpu_stats = gpu.schedule_stats();
        assert_eq!(decisions(gpu_stats), decisions(scheduler.stats()), "{fen}");
        overflows += gpu_stats.overflows;
        host_splits += gpu_stats.host_splits;
        let gpu_work = gpu.work_counters().expect("counters");
        let twin_work = twin.work_counters();
        assert_eq!(gpu_work.leaf_count_ops, twin_work.leaf_count_ops, "{fen}");
        assert_eq!(gpu_work.null_counted, twin_work.null_counted, "{fen}");
        assert_eq!(
            gpu_work.positions_expanded, twin_work.positions_expanded,
            "{fen}"
        );
        assert_eq!(gpu_work.items, twin_work.items, "{fen}");
        assert_eq!(gpu_work.launch_depth, twin_work.launch_depth, "{fen}");
        let (gpu_chunks, twin_chunks) = (gpu_work.chunks.unwrap(), twin_work.chunks.unwrap());
        assert_eq!(
            gpu_chunks.positions_written, twin_chunks.positions_written,
            "{fen}"
        );
        assert_eq!(gpu_chunks.bytes_written, twin_chunks.bytes_written, "{fen}");
        assert_eq!(
            gpu_chunks.leaf_level_bytes, twin_chunks.leaf_level_bytes,
            "{fen}"
        );
        assert_eq!(gpu_chunks.overflows, twin_chunks.overflows, "{fen}");
        assert_eq!(
            gpu_chunks.wasted_positions, twin_chunks.wasted_positions,
            "{fen}"
        );
        assert_eq!(
            gpu_chunks.chunk_positions, twin_chunks.chunk_positions,
            "{fen}"
        );
        assert_eq!(gpu_chunks.chunk_bytes, twin_chunks.chunk_bytes, "{fen}");
    }
    // The budget made chunks overflow and items split: those decisions were compared too.
    assert!(
        overflows > 0 && host_splits > 0,
        "{overflows} {host_splits}"
    );
}
