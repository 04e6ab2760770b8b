//! The Vulkan backend against the CPU, on whatever Vulkan device the machine has (lavapipe in
//! CI). Every comparison is per root move, so a mismatch names the move.

use crate::common;

use crate::common::{nodes_by_move, random_positions, silent_control, NARROW_ROOT_FEN};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use vkperft::backend::run_control::{ProgressSample, RunControl};
use vkperft::backend::RunError;
use vkperft::chess::perft;
use vkperft::chess::{Move, Position};
use vkperft::count::Counts;
use vkperft::gpu::layouts::{
    ChildRange, Control, GpuBoard, GpuU128, Level, SegmentAddresses, StepConstants, TtParamsHead,
};
use vkperft::gpu::shader_layout::{MAX_LEVELS, TT_MAX_SEGMENTS};
use vkperft::gpu::slider_attacks::SliderAttacks;
use vkperft::gpu::{GpuError, GpuOptions, Submissions, VulkanBackend};
use vkperft::reference as published;

fn backend() -> MutexGuard<'static, VulkanBackend> {
    common::shared_vulkan_backend()
}

fn cpu_divide(pos: &Position, depth: u32) -> BTreeMap<String, u128> {
    perft::divide(pos, depth)
        .into_iter()
        .map(|(m, nodes)| (m.to_string(), nodes))
        .collect()
}

fn gpu_divide(backend: &mut VulkanBackend, pos: &Position, depth: u32) -> BTreeMap<String, u128> {
    let divide = backend
        .divide(pos, depth, &silent_control())
        .unwrap_or_else(|err| panic!("{}: {err:?}", pos.to_fen()));
    nodes_by_move(&divide)
}

#[test]
fn reference_positions_match_published_values_and_cpu_divides() {
    let mut gpu = backend();
    for value in published::values().iter().filter(|v| v.nodes <= 20_000_000) {
        let pos = Position::from_fen(value.fen).expect("published FEN");
        let divide = gpu_divide(&mut gpu, &pos, value.depth);
        assert_eq!(
            divide.values().sum::<u128>(),
            value.nodes,
            "{} depth {}",
            value.name,
            value.depth
        );
        if value.depth <= 5 {
            assert_eq!(
                divide,
                cpu_divide(&pos, value.depth),
                "{} depth {}",
                value.name,
                value.depth
            );
        }
    }
}

#[test]
fn random_positions_match_the_cpu_per_root_move() {
    let mut gpu = backend();
    for (i, pos) in random_positions(0x6770_7521, 200, 40).iter().enumerate() {
        let depth = if i % 4 == 0 { 4 } else { 3 };
        assert_eq!(
            gpu_divide(&mut gpu, pos, depth),
            cpu_divide(pos, depth),
            "{} depth {depth}",
            pos.to_fen()
        );
    }
}

/// Both ways of finding slider attacks, each forced on this device (lavapipe runs fills unless
/// told otherwise), give the CPU's divides.
#[test]
fn both_slider_attack_methods_match_the_cpu_per_root_move() {
    for sliders in SliderAttacks::ALL {
        let mut gpu = VulkanBackend::new(&GpuOptions {
            slider_attacks: Some(sliders),
            ..GpuOptions::default()
        })
        .expect("the device opens");
        for value in published::values()
            .iter()
            .filter(|v| v.depth <= 4 && v.nodes <= 5_000_000)
        {
            let pos = Position::from_fen(value.fen).expect("published FEN");
            assert_eq!(
                gpu_divide(&mut gpu, &pos, value.depth),
                cpu_divide(&pos, value.depth),
                "{sliders:?}: {} depth {}",
                value.name,
                value.depth
            );
        }
        for pos in random_positions(0x736c_6964, 80, 40) {
            assert_eq!(
                gpu_divide(&mut gpu, &pos, 3),
                cpu_divide(&pos, 3),
                "{sliders:?}: {}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn shallow_depths_and_terminal_roots() {
    let mut gpu = backend();
    let start = Position::startpos();
    assert!(gpu_divide(&mut gpu, &start, 0).is_empty());
    assert_eq!(gpu_divide(&mut gpu, &start, 1).values().sum::<u128>(), 20);
    assert_eq!(gpu_divide(&mut gpu, &start, 2).values().sum::<u128>(), 400);
    let mate = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        .expect("fool's mate");
    assert!(gpu_divide(&mut gpu, &mate, 3).is_empty());
    let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("stalemate");
    assert!(gpu_divide(&mut gpu, &stalemate, 4).is_empty());
}

#[test]
fn a_tiny_memory_budget_splits_chunks_and_items_with_the_same_answer() {
    // 48 KiB holds about 2,400 positions without a table. The start position's launch depth
    // keeps its items small enough for chunks of several; a root in check with three replies
    // looks narrow to the launch depth, so its items overflow even alone and are split on the
    // host.
    let mut tiny = VulkanBackend::new(&GpuOptions {
        device: None,
        memory_budget: Some(48 << 10),
        ..GpuOptions::default()
    })
    .expect("a small budget opens");
    assert!(tiny.runner().capacity() < 2_500);
    let start = Position::startpos();
    let divide = gpu_divide(&mut tiny, &start, 6);
    assert_eq!(divide.values().sum::<u128>(), 119_060_324);
    assert_eq!(divide, cpu_divide(&start, 6));
    let in_check = Position::from_fen(NARROW_ROOT_FEN).expect("in check");
    let divide = gpu_divide(&mut tiny, &in_check, 6);
    let schedule = tiny.schedule_stats();
    assert!(schedule.overflows > 0, "{schedule:?}");
    assert!(schedule.host_splits > 0, "{schedule:?}");
    assert_eq!(divide, cpu_divide(&in_check, 6));
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("kiwipete");
    assert_eq!(
        gpu_divide(&mut tiny, &kiwipete, 4).values().sum::<u128>(),
        4_085_603
    );
}

/// Chunks submitted whole (one submission each, levels sized on the device, the next chunk
/// queued behind) give the CPU's counts per root move, also when chunks overflow a small
/// budget and are redone. The schedule is forced, so what is tested does not depend on how
/// fast the machine ran the last chunk.
#[test]
fn chunks_submitted_whole_match_the_cpu_per_root_move() {
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("kiwipete");
    let narrow = Position::from_fen(NARROW_ROOT_FEN).expect("in check");
    for (budget, pos, depth) in [
        (None, Position::startpos(), 6),
        (None, kiwipete, 5),
        (Some(1 << 20), narrow, 6),
    ] {
        let mut gpu = VulkanBackend::new(&GpuOptions {
            memory_budget: budget,
            submissions: Submissions::Whole,
            ..GpuOptions::default()
        })
        .expect("the device opens");
        let divide = gpu_divide(&mut gpu, &pos, depth);
        let schedule = gpu.schedule_stats();
        assert!(schedule.chunks > 0, "{budget:?}: {schedule:?}");
        assert_eq!(
            schedule.whole_chunks, schedule.chunks,
            "{budget:?}: {schedule:?}"
        );
        if budget.is_some() {
            assert!(schedule.overflows > 0, "{schedule:?}");
        }
        assert_eq!(
            divide,
            cpu_divide(&pos, depth),
            "{budget:?} {}",
            pos.to_fen()
        );
    }
}

/// Paced, the first chunk of each depth goes in parts (its time sizes the whole chunks after
/// it), whatever the machine's speed.
#[test]
fn paced_chunks_time_each_depth_in_parts_first() {
    let mut gpu = VulkanBackend::new(&GpuOptions::default()).expect("the device opens");
    let start = Position::startpos();
    assert_eq!(gpu_divide(&mut gpu, &start, 6), cpu_divide(&start, 6));
    let schedule = gpu.schedule_stats();
    assert!(schedule.whole_chunks < schedule.chunks, "{schedule:?}");
}

#[test]
fn a_budget_too_small_for_one_chunk_is_an_error() {
    let err = VulkanBackend::new(&GpuOptions {
        device: None,
        memory_budget: Some(1024),
        ..GpuOptions::default()
    })
    .err()
    .expect("1 KiB is too small");
    assert!(
        matches!(err, GpuError::BudgetTooSmall { mb: 0, .. }),
        "{err}"
    );
}

#[test]
fn a_missing_device_index_is_an_error() {
    let err = VulkanBackend::new(&GpuOptions {
        device: Some(999),
        ..GpuOptions::default()
    })
    .err()
    .expect("there is no device 999");
    assert!(err.to_string().contains("999"), "{err}");
}

/// A cancel takes effect before the next submission: nothing is reported after it, and the
/// backend runs the next job exactly.
#[test]
fn cancel_stops_before_the_next_chunk_and_the_backend_is_reusable() {
    let mut gpu = backend();
    let cancel = AtomicBool::new(false);
    let reports_after_cancel = Mutex::new(0usize);
    let on_progress = |_: ProgressSample| {
        if cancel.swap(true, Ordering::Relaxed) {
            *reports_after_cancel
                .lock()
                .unwrap_or_else(|e| e.into_inner()) += 1;
        }
    };
    let on_root_done = |_: Move, _: Counts| {
        if cancel.load(Ordering::Relaxed) {
            *reports_after_cancel
                .lock()
                .unwrap_or_else(|e| e.into_inner()) += 1;
        }
    };
    let control = RunControl {
        cancel: &cancel,
        progress_interval: Duration::ZERO,
        on_progress: &on_progress,
        on_root_done: &on_root_done,
    };
    let start = Position::startpos();
    let outcome = gpu.divide(&start, 8, &control);
    assert!(
        matches!(outcome, Err(RunError::Cancelled)),
        "a cancelled run returns no result: {outcome:?}"
    );
    assert!(cancel.load(Ordering::Relaxed), "progress was reported");
    assert_eq!(
        reports_after_cancel
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
        0
    );
    assert_eq!(
        gpu_divide(&mut gpu, &start, 4).values().sum::<u128>(),
        197_281
    );
}

/// Every level of a deep run goes to the device in parts (items of six plies, whose widest
/// levels took seconds per submission whole), and the run looks at the cancel between them:
/// cancelled while it runs, perft 10 (hours on lavapipe) ends with `Cancelled` within seconds.
/// The bound holds on a loaded machine; how soon a cancel takes effect when the machine is idle
/// is measured, not tested (a part is sized from measured device times).
#[test]
fn a_deep_run_goes_in_parts_and_ends_soon_after_a_cancel() {
    let mut gpu = backend();
    let cancel = AtomicBool::new(false);
    let cancelled_at = Mutex::new(None);
    // The cancel comes a second after the first progress report: the host's plan is made and
    // chunks are running.
    let (searching, first_report) = crossbeam_channel::bounded::<()>(1);
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            let _ = first_report.recv();
            std::thread::sleep(Duration::from_secs(1));
            *cancelled_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            cancel.store(true, Ordering::Relaxed);
        });
        let on_progress = |_: ProgressSample| {
            let _ = searching.try_send(());
        };
        let control = RunControl {
            cancel: &cancel,
            progress_interval: Duration::from_millis(100),
            on_progress: &on_progress,
            ..silent_control()
        };
        gpu.divide(&Position::startpos(), 10, &control)
    });
    let stopped = Instant::now();
    assert!(matches!(outcome, Err(RunError::Cancelled)), "{outcome:?}");
    let cancelled_at = cancelled_at
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("the cancel was sent");
    let latency = stopped - cancelled_at;
    assert!(
        latency < Duration::from_secs(60),
        "stopped {latency:?} after the cancel"
    );
    let schedule = gpu.schedule_stats();
    assert!(schedule.submissions > schedule.chunks, "{schedule:?}");
    assert_eq!(
        gpu_divide(&mut gpu, &Position::startpos(), 4)
            .values()
            .sum::<u128>(),
        197_281
    );
}

#[test]
fn progress_and_root_moves_are_reported() {
    let mut gpu = backend();
    let samples = Mutex::new(Vec::new());
    let roots = Mutex::new(Vec::new());
    let never = AtomicBool::new(false);
    let on_progress = |s: ProgressSample| samples.lock().expect("samples").push(s);
    let on_root_done = |m: Move, c: Counts| roots.lock().expect("roots").push((m, c.nodes));
    let control = RunControl {
        cancel: &never,
        progress_interval: Duration::ZERO,
        on_progress: &on_progress,
        on_root_done: &on_root_done,
    };
    let start = Position::startpos();
    gpu.divide(&start, 5, &control).expect("runs");
    let samples = samples.into_inner().expect("samples");
    let last = samples.last().expect("at least one progress report");
    assert_eq!(last.nodes, 4_865_609);
    assert_eq!(last.tasks_done, last.tasks_total);
    let roots = roots.into_inner().expect("roots");
    assert_eq!(roots.len(), 20);
    assert_eq!(roots.iter().map(|&(_, n)| n).sum::<u128>(), 4_865_609);
}

#[test]
fn shader_layouts_match_the_rust_twins() {
    let mut gpu = backend();
    let board = GpuBoard {
        planes: [
            0x0102_0304_0506_0708,
            0x1112_1314_1516_1718,
            0x2122_2324_2526_2728,
            0x3132_3334_3536_3738,
        ],
    };
    let range = ChildRange {
        first: 0x4142_4344,
        count: 0x5152_5354,
    };
    let mut control = Control {
        appended: 0x6162_6364,
        overflow: 0x7172_7374,
        capacity: 0x7576_7778,
        inner_capacity: 0x7071_7d7e,
        max_groups_x: 0x797a_7b7c,
        ..Control::default()
    };
    let last_level = MAX_LEVELS as usize - 1;
    control.levels[last_level] = Level {
        offset: 0x8182_8384,
        count: 0x9192_9394,
        groups: [0xa1a2_a3a4, 0xb1b2_b3b4, 0xb5b6_b7b8],
        unused: [0; 3],
    };
    let step = StepConstants {
        level: 0xbcbd_bebf,
        remaining: 0xc1c2_c3c4,
        flags: 0xc5c6_c7c8,
        first_invocation: 0xc9ca_cbcc,
    };
    let tt_head = TtParamsHead {
        mode: 0xd1d2_d3d4,
        segment_shift: 0xe1e2_e3e4,
        buckets: 0xf1f2_f3f4_f5f6_f7f8,
        verifier_mask: 0x0a0b_0c0d_0e0f_1a1b,
        compact_buckets: 0x2a2b_2c2d_2e2f_3a3b,
        compact_verifier_mask: 0x4a4b_4c4d_4e4f_5a5b,
    };
    let last = TT_MAX_SEGMENTS as usize - 1;
    let segments = |base: u64| {
        let mut addresses: Vec<u64> = (0..=last as u64).map(|i| base + i).collect();
        addresses[last] = base ^ 0xffff_0000_0000_0000;
        addresses
    };
    let addresses = SegmentAddresses {
        fast: segments(0x1000_0000),
        exact: segments(0x3000_0000),
        stats: segments(0x5000_0000),
    };
    let seen = gpu
        .runner_mut()
        .probe_layouts(board, range, control, step, tt_head, &addresses)
        .expect("the probe runs");
    let expected: Vec<u64> = board
        .planes
        .iter()
        .copied()
        .chain(
            [
                range.first,
                range.count,
                control.appended,
                control.overflow,
                control.capacity,
                control.inner_capacity,
                control.max_groups_x,
                control.levels[last_level].offset,
                control.levels[last_level].count,
                control.levels[last_level].groups[0],
                control.levels[last_level].groups[1],
                control.levels[last_level].groups[2],
                step.level,
                step.remaining,
                step.flags,
                step.first_invocation,
                tt_head.mode,
                tt_head.segment_shift,
            ]
            .map(u64::from),
        )
        .chain([
            tt_head.buckets,
            tt_head.verifier_mask,
            tt_head.compact_buckets,
            tt_head.compact_verifier_mask,
            addresses.fast[0],
            addresses.fast[last],
            addresses.exact[0],
            addresses.exact[last],
            addresses.stats[0],
            addresses.stats[last],
        ])
        .collect();
    let expected: Vec<GpuU128> = expected
        .into_iter()
        .map(|value| GpuU128 {
            low: value,
            high: !value,
        })
        .collect();
    assert_eq!(seen, expected);
}
