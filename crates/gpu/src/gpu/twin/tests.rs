//! The scheduler's decisions and the work counters, run by the twin executor.

use crate::backend::plan::{Plan, Tally, WorkItem};
use crate::backend::run_control::RunControl;
use crate::backend::RunError;
use crate::chess::movegen::legal_moves;
use crate::chess::specialized::perft;
use crate::chess::Zobrist;
use crate::chess::{Move, Position};
use crate::count::Counts;
use crate::gpu::layouts::{inner_positions, Level, StepConstants};
use crate::gpu::options::Submissions;
use crate::gpu::scheduler::{ChunkRun, Executor, ScheduleStats, Scheduler};
use crate::gpu::twin::buffers::{board_of, TwinBuffers};
use crate::gpu::twin::executor::{ChunkRecord, TwinExecutor};
use crate::gpu::twin::expand::expand;
use crate::gpu::twin::next_level::next_level;
use crate::gpu::twin::table::TwinTable;
use crate::tt::{TranspositionTable, TtConfig, TtMode};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Kiwipete with the white king in check from a queen on e2: three replies at the root, many
/// moves below them.
const NARROW_ROOT: &str = "r3k2r/p1pp1pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBqPPP/R3K2R w KQkq - 0 1";
const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn run(
    scheduler: &mut Scheduler,
    twin: &mut TwinExecutor,
    pos: &Position,
    depth: u32,
    cancel: &AtomicBool,
) -> Result<Vec<(Move, Counts)>, RunError> {
    let control = RunControl {
        cancel,
        progress_interval: Duration::ZERO,
        on_progress: &|_| {},
        on_root_done: &|_, _| {},
    };
    scheduler.divide(twin, pos, depth, &control)
}

fn divide(
    scheduler: &mut Scheduler,
    twin: &mut TwinExecutor,
    pos: &Position,
    depth: u32,
) -> Vec<(Move, u128)> {
    run(scheduler, twin, pos, depth, &AtomicBool::new(false))
        .expect("the twin runs")
        .into_iter()
        .map(|(m, counts)| (m, counts.nodes))
        .collect()
}

/// Perft per root move by the CPU's own search, the reference.
fn reference(pos: &Position, depth: u32) -> Vec<(Move, u128)> {
    legal_moves(pos)
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("a legal position")
}

#[test]
fn the_twin_counts_every_root_move_exactly_however_chunks_go() {
    for (pos, depth) in [
        (Position::startpos(), 5),
        (position(KIWIPETE), 3),
        (position(NARROW_ROOT), 4),
        (position(ENDGAME), 5),
    ] {
        let expected = reference(&pos, depth);
        for submissions in [Submissions::Whole, Submissions::Paced] {
            for capacity in [1 << 12, 1 << 20] {
                let mut scheduler = Scheduler::new(submissions);
                let mut twin = TwinExecutor::new(capacity, 256);
                let counted = divide(&mut scheduler, &mut twin, &pos, depth);
                assert_eq!(counted, expected, "{submissions:?} {capacity}");
            }
        }
    }
}

/// A twin executor whose chunks probe and store a table of 1,024 lines in `mode` (a few
/// thousand entries, so that entries are replaced), half of them compact if `split` (fast),
/// with the keys of seed 7.
fn twin_with_table(
    mode: TtMode,
    split: bool,
    submissions: Submissions,
) -> (Scheduler, TwinExecutor) {
    let keys = Zobrist::new(7);
    let table = if split {
        let deeper = TranspositionTable::new(&TtConfig::new(mode, 1 << 15)).expect("a small table");
        TwinTable::split(deeper, 512, keys)
    } else {
        let table = TranspositionTable::new(&TtConfig::new(mode, 1 << 16)).expect("a small table");
        TwinTable::new(table, keys)
    };
    let twin = TwinExecutor::new(1 << 14, 256).with_table(table);
    (Scheduler::new(submissions), twin)
}

/// With a table in every mode, and a fast table split by depth, whole and in parts, the twin
/// runs the stage program with its dedup steps, probes and stores: every root move exact, and
/// a second run of the same position answered from the table (more hits, fewer count-ops). In
/// certify the fast counts are the exact ones (no false hits with 64 verifier bits).
#[test]
fn the_twin_with_a_table_counts_every_root_move_exactly_in_every_mode() {
    let variants = [
        (TtMode::Fast, false),
        (TtMode::Verified, false),
        (TtMode::Certify, false),
        (TtMode::Fast, true),
    ];
    for (mode, split) in variants {
        for submissions in [Submissions::Whole, Submissions::Paced] {
            for (pos, depth) in [(position(KIWIPETE), 4), (position(ENDGAME), 5)] {
                let (mut scheduler, mut twin) = twin_with_table(mode, split, submissions);
                let expected = reference(&pos, depth);
                let context = format!("{mode:?} split {split} {submissions:?} {depth}");
                let first = run(
                    &mut scheduler,
                    &mut twin,
                    &pos,
                    depth,
                    &AtomicBool::new(false),
                )
                .expect("the twin runs");
                let nodes = |run: &[(Move, Counts)]| -> Vec<(Move, u128)> {
                    run.iter().map(|(m, counts)| (*m, counts.nodes)).collect()
                };
                assert_eq!(nodes(&first), expected, "{context}");
                for (_, counts) in &first {
                    assert_eq!(counts.fast_nodes, counts.nodes, "{context}");
                }
                let work = twin.work_counters();
                let table = |twin: &TwinExecutor| twin.table().expect("a table").snapshot().total;
                let tt = table(&twin);
                assert!(tt.stores > 0 && tt.probes > 0, "{context}");
                assert!(work.chunks.expect("chunk work").duplicates > 0, "{context}");
                let again = divide(&mut scheduler, &mut twin, &pos, depth);
                assert_eq!(again, expected, "{context}");
                assert!(table(&twin).hits > tt.hits, "{context}");
                assert!(
                    twin.work_counters().leaf_count_ops < work.leaf_count_ops,
                    "{context}"
                );
            }
        }
    }
}

/// Without a table every child at remaining depth 2 has its moves counted once or is counted
/// by its null board's replies: the leaf's count-ops and the moves counted without being made
/// add up to the perft one ply less deep, and most of the start position's are not made.
#[test]
fn leaf_count_ops_and_null_counted_moves_without_a_table_are_the_perft_one_ply_less() {
    for (pos, deepest) in [(Position::startpos(), 5), (position(KIWIPETE), 4)] {
        for depth in 1..=deepest {
            let mut scheduler = Scheduler::new(Submissions::Whole);
            let mut twin = TwinExecutor::new(1 << 16, 256);
            divide(&mut scheduler, &mut twin, &pos, depth);
            let work = twin.work_counters();
            assert_eq!(
                work.leaf_count_ops + work.null_counted,
                perft(&pos, depth - 1),
                "depth {depth}"
            );
            if depth >= 3 {
                assert!(work.null_counted > 0, "depth {depth}");
            }
        }
    }
}

/// Whole chunks start at sixteen items, then grow to at most twice as many, within half the
/// capacity at the positions per item of the last chunk; they take the two slots in turn (the
/// second chunk is queued before the first is done, so it is sized as the first was), and
/// every level they wrote is counted.
#[test]
fn whole_chunks_start_at_sixteen_items_grow_and_alternate_slots() {
    let start = Position::startpos();
    let capacity = 1 << 14;
    let mut scheduler = Scheduler::new(Submissions::Whole);
    let mut twin = TwinExecutor::new(capacity, 256);
    divide(&mut scheduler, &mut twin, &start, 6);
    let chunks = &twin.chunks;
    assert!(chunks.len() > 2, "{chunks:?}");
    assert!(chunks.iter().all(|chunk| chunk.whole && chunk.fit));
    assert_eq!((chunks[0].items, chunks[1].items), (16, 16));
    let per_item = chunks[0].positions as f64 / 16.0;
    let fitting = (f64::from(capacity) / 2.0 / per_item) as usize;
    assert_eq!(chunks[2].items, fitting.min(32), "{chunks:?}");
    for (chunk, slot) in chunks.iter().zip([0, 1].into_iter().cycle()) {
        assert_eq!(chunk.slot, Some(slot));
    }
    let stats = scheduler.stats();
    assert_eq!(stats.chunks, chunks.len() as u64);
    assert_eq!(stats.whole_chunks, stats.chunks);
    assert_eq!((stats.overflows, stats.host_splits), (0, 0));
    // At this capacity the items are the 400 positions two plies deep, four plies above the
    // leaves: their chunks write the positions three and four plies below the root.
    let work = twin.work_counters();
    assert_eq!((work.items, work.launch_depth), (400, 4));
    let written = work.chunks.expect("chunk counters").positions_written;
    assert_eq!(written.get(3), perft(&start, 3) as u64);
    assert_eq!(written.get(2), perft(&start, 4) as u64);
}

/// A chunk whose levels do not fit is redone with half its items; a single item that does not
/// fit is split on the host, its children searched as items one ply less deep. With two slots
/// the chunk after the next one is the first decided after a chunk's end.
#[test]
fn an_overflow_halves_the_chunk_and_a_lone_item_is_split_on_the_host() {
    let pos = position(NARROW_ROOT);
    let mut scheduler = Scheduler::new(Submissions::Whole);
    let mut twin = TwinExecutor::new(1 << 10, 256);
    assert_eq!(
        divide(&mut scheduler, &mut twin, &pos, 5),
        reference(&pos, 5)
    );
    let stats = scheduler.stats();
    assert!(stats.overflows > 0 && stats.host_splits > 0, "{stats:?}");
    let chunks: &[ChunkRecord] = &twin.chunks;
    let mut first_split = true;
    for (before, after) in chunks.iter().zip(&chunks[2..]) {
        if before.fit {
            continue;
        }
        if before.items > 1 {
            assert!(after.items <= before.items / 2, "{before:?} -> {after:?}");
        } else if first_split {
            // No item of the children's depth waits yet: none of them is merged away.
            assert_eq!(
                after.remaining,
                before.remaining - 1,
                "{before:?} -> {after:?}"
            );
            first_split = false;
        }
    }
    assert!(!first_split, "{chunks:?}");
    let work = twin.work_counters();
    let chunk_work = work.chunks.expect("chunk counters");
    assert_eq!(chunk_work.overflows, stats.overflows);
    assert!(chunk_work.wasted_positions > 0);
}

/// Paced, the first chunk of a depth goes in parts; once its time per position is known,
/// chunks that fit a submission go whole, their levels bounded by what 800 ms covers. Chunks
/// whose single items take too long never go whole.
#[test]
fn paced_chunks_go_in_parts_until_their_time_is_known() {
    let mut scheduler = Scheduler::new(Submissions::Paced);
    let mut twin = TwinExecutor::new(1 << 20, 256).with_time_per_position(Duration::from_micros(1));
    divide(&mut scheduler, &mut twin, &Position::startpos(), 6);
    let chunks = &twin.chunks;
    assert!(!chunks[0].whole, "{chunks:?}");
    let whole: Vec<&ChunkRecord> = chunks.iter().filter(|chunk| chunk.whole).collect();
    assert!(!whole.is_empty(), "{chunks:?}");
    assert!(whole.iter().all(|chunk| chunk.capacity == 800_000));

    let mut scheduler = Scheduler::new(Submissions::Paced);
    let mut twin = TwinExecutor::new(1 << 20, 256).with_time_per_position(Duration::from_millis(1));
    divide(&mut scheduler, &mut twin, &Position::startpos(), 6);
    assert!(twin.chunks.iter().all(|chunk| !chunk.whole));
    assert!(twin.work_counters().chunks.is_some_and(|work| work.paced));
}

#[test]
fn a_cancelled_run_stops_before_its_first_chunk() {
    let mut scheduler = Scheduler::new(Submissions::Whole);
    let mut twin = TwinExecutor::new(1 << 16, 256);
    let cancelled = run(
        &mut scheduler,
        &mut twin,
        &Position::startpos(),
        5,
        &AtomicBool::new(true),
    );
    assert!(matches!(cancelled, Err(RunError::Cancelled)));
    assert!(twin.chunks.is_empty());
}

/// The positions a twin expand writes after a level of `positions`, with their parents.
fn expanded(positions: &[Position], capacity: u32) -> TwinBuffers {
    let mut buffers = TwinBuffers::new(capacity, inner_positions(u64::from(capacity)) as u32);
    for (board, pos) in buffers.boards.iter_mut().zip(positions) {
        *board = board_of(pos);
    }
    buffers.control.capacity = capacity;
    buffers.control.inner_capacity = inner_positions(u64::from(capacity)) as u32;
    buffers.control.max_groups_x = 1;
    buffers.control.levels[0] = Level::new(0, positions.len() as u32, 1);
    let step = StepConstants {
        remaining: 3,
        ..StepConstants::default()
    };
    expand(&mut buffers, None, &step, positions.len() as u32);
    next_level(&mut buffers, &step);
    buffers
}

#[test]
fn expand_writes_each_positions_children_after_the_level() {
    let positions = [Position::startpos(), position(KIWIPETE)];
    let buffers = expanded(&positions, 1 << 12);
    let level = buffers.control.levels[1];
    assert_eq!((level.offset, level.count), (2, 20 + 48));
    assert_eq!(level.groups, [1, 2, 1]);
    for (index, pos) in positions.iter().enumerate() {
        let range = buffers.children[index];
        let written: HashSet<_> = (range.first..range.first + range.count)
            .map(|child| buffers.boards[child as usize])
            .collect();
        let expected: HashSet<_> = legal_moves(pos)
            .iter()
            .map(|&m| board_of(&pos.play(m)))
            .collect();
        assert_eq!(written, expected);
    }
    assert_eq!(buffers.work.expanded.get(3), 2);
}

#[test]
fn a_level_that_does_not_fit_flags_the_overflow_and_leaves_no_workgroups() {
    // 64 positions before the leaf level: the start position's 20 children fit, kiwipete's 48
    // after them do not.
    let buffers = expanded(&[Position::startpos(), position(KIWIPETE)], 256);
    assert_eq!(buffers.control.overflow, 1);
    assert_eq!(buffers.children[0].count, 20);
    assert_eq!(buffers.children[1].count, 0);
    assert_eq!(buffers.control.levels[1].count, 0);
    assert!(buffers.control.levels[..2]
        .iter()
        .all(|level| level.groups[0] == 0));
}

#[test]
fn dedup_marks_each_later_occurrence_of_a_position_once() {
    let zobrist = crate::chess::Zobrist::new(7);
    let positions = [
        Position::startpos(),
        position(KIWIPETE),
        Position::startpos(),
        Position::startpos(),
        position(KIWIPETE),
    ];
    let mut buffers = TwinBuffers::new(1 << 10, 1 << 8);
    for (index, pos) in positions.iter().enumerate() {
        buffers.boards[index] = board_of(pos);
        buffers.hashes[index] = (zobrist.hash(pos) ^ zobrist.depth_key(3)).into();
    }
    buffers.control.levels[0] = Level::new(0, positions.len() as u32, 1);
    let step = StepConstants {
        remaining: 3,
        ..StepConstants::default()
    };
    crate::gpu::twin::dedup::dedup(&mut buffers, &zobrist, false, &step, 64);
    let firsts: Vec<(u32, u32)> = buffers.children[..5]
        .iter()
        .map(|range| (range.first, range.count))
        .collect();
    let duplicate = crate::gpu::shader_layout::CHILD_FLAG_DUPLICATE;
    assert_eq!(
        firsts,
        [
            (0, 0),
            (0, 0),
            (0, duplicate),
            (0, duplicate),
            (1, duplicate)
        ]
    );
    assert_eq!(buffers.work.duplicates, 3);
}

/// What the scheduler asked of an executor, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    Whole { items: usize },
    Finished { items: usize, fit: bool },
    Parts { items: usize },
}

/// The twin, but every whole chunk overflows until a lone item's has: a chunk far more
/// lopsided than its depth's last one.
struct Lopsided {
    twin: TwinExecutor,
    lone_overflowed: bool,
    asked: Vec<Asked>,
}

impl Executor for Lopsided {
    fn capacity(&self) -> u32 {
        self.twin.capacity()
    }

    fn max_chunk_items(&self) -> usize {
        self.twin.max_chunk_items()
    }

    fn begin_run(
        &mut self,
        plan: &Plan,
        depth: u32,
        submissions: Submissions,
    ) -> Result<(), RunError> {
        self.twin.begin_run(plan, depth, submissions)
    }

    fn submit_whole(
        &mut self,
        slot: usize,
        items: &[WorkItem],
        capacity: u32,
    ) -> Result<(), RunError> {
        self.asked.push(Asked::Whole { items: items.len() });
        self.twin.submit_whole(slot, items, capacity)
    }

    fn finish_whole(&mut self, slot: usize, items: &[WorkItem]) -> Result<ChunkRun, RunError> {
        let mut run = self.twin.finish_whole(slot, items)?;
        if !self.lone_overflowed {
            run.counts = None;
            self.lone_overflowed = items.len() == 1;
        }
        let fit = run.counts.is_some();
        self.asked.push(Asked::Finished {
            items: items.len(),
            fit,
        });
        Ok(run)
    }

    fn run_in_parts(
        &mut self,
        items: &[WorkItem],
        control: &RunControl<'_>,
    ) -> Result<ChunkRun, RunError> {
        self.asked.push(Asked::Parts { items: items.len() });
        self.twin.run_in_parts(items, control)
    }

    fn wait_all(&mut self) {
        self.twin.wait_all();
    }

    fn count_split(&mut self, children: usize) {
        self.twin.count_split(children);
    }

    fn report_progress(
        &mut self,
        tally: &Tally,
        stats: &ScheduleStats,
        control: &RunControl<'_>,
    ) -> Result<(), RunError> {
        self.twin.report_progress(tally, stats, control)
    }
}

/// Paced, a lone item whose whole chunk overflowed its bound is not split on the host: the
/// next chunk of its depth goes in parts, where levels may hold the whole capacity, even when
/// the chunk queued behind it fit.
#[test]
fn a_lone_item_over_its_paced_bound_goes_in_parts_next() {
    let pos = Position::startpos();
    let mut scheduler = Scheduler::new(Submissions::Paced);
    let mut lopsided = Lopsided {
        twin: TwinExecutor::new(1 << 20, 256).with_time_per_position(Duration::from_micros(1)),
        lone_overflowed: false,
        asked: Vec::new(),
    };
    let control = RunControl {
        cancel: &AtomicBool::new(false),
        progress_interval: Duration::ZERO,
        on_progress: &|_| {},
        on_root_done: &|_, _| {},
    };
    let counted: Vec<(Move, u128)> = scheduler
        .divide(&mut lopsided, &pos, 6, &control)
        .expect("the twin runs")
        .into_iter()
        .map(|(m, counts)| (m, counts.nodes))
        .collect();
    assert_eq!(counted, reference(&pos, 6));
    let asked = &lopsided.asked;
    let lone = asked
        .iter()
        .position(|&asked| {
            asked
                == Asked::Finished {
                    items: 1,
                    fit: false,
                }
        })
        .expect("a lone whole chunk overflowed");
    let next = asked[lone + 1..]
        .iter()
        .find(|asked| !matches!(asked, Asked::Finished { .. }));
    assert!(matches!(next, Some(Asked::Parts { .. })), "{asked:?}");
    let stats = scheduler.stats();
    assert_eq!(stats.host_splits, 0, "{stats:?}");
    assert!(stats.overflows >= 2, "{stats:?}");
}
