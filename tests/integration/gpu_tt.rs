//! The transposition table on the GPU, against `--tt off` and the CPU per root move: every mode
//! exact, `certify` catching what a narrowed verifier lets through, tables over
//! maxStorageBufferRange, tiny tables under the contention of a whole dispatch, the GPU's hash
//! against the CPU's Zobrist hash, and statistics that add up.

mod hashes;
mod modes;
mod schedule;
mod segments;
mod self_test;
mod tables;

use crate::common;

use crate::common::{
    assert_consistent, config, nodes_by_move, position, random_chess960_positions,
    random_positions, total_fast_nodes, total_nodes, CHESS960_SHARP_FENS, NARROW_ROOT_FEN,
};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use vkperft::backend::run_control::{ProgressSample, RunControl};
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::perft;
use vkperft::chess::{Move, NybbleBoard, Position, Zobrist};
use vkperft::count::Counts;
use vkperft::gpu::layouts::GpuBoard;
use vkperft::gpu::slider_attacks::SliderAttacks;
use vkperft::gpu::{GpuError, GpuOptions, SelfTestProbe, Submissions, VulkanBackend};
use vkperft::tt::fast::MAX_FAST_COUNT;
use vkperft::tt::{
    TableSplit, TranspositionTable, TtConfig, TtMode, TtStatsSnapshot, DEFAULT_VERIFIER_BITS,
};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;
const TABLE_MODES: [TtMode; 3] = [TtMode::Fast, TtMode::Verified, TtMode::Certify];

/// The shared backend, which must hold the GPU table.
fn backend() -> MutexGuard<'static, VulkanBackend> {
    let backend = common::shared_vulkan_backend();
    assert!(
        backend.runner().supports_tt(),
        "the test device runs no GPU table: {:?}",
        backend.runner().device_info().tt_missing
    );
    backend
}

/// The CPU's exact divide.
fn cpu_divide(pos: &Position, depth: u32) -> Vec<(Move, Counts)> {
    perft::divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (m, Counts::exact(n)))
        .collect()
}

/// A GPU run with `config`, its divide and statistics.
fn gpu_run(
    gpu: &mut VulkanBackend,
    pos: &Position,
    depth: u32,
    config: &TtConfig,
    zobrist: &Zobrist,
    control: &RunControl<'_>,
) -> (Vec<(Move, Counts)>, Option<TtStatsSnapshot>) {
    gpu.prepare_table(config, zobrist)
        .unwrap_or_else(|err| panic!("{config:?}: {err:?}"));
    let divide = gpu
        .divide(pos, depth, control)
        .unwrap_or_else(|err| panic!("{config:?} on {}: {err:?}", pos.to_fen()));
    let stats = gpu.runner().tt_snapshot().expect("statistics read back");
    (divide, stats)
}

/// A GPU run with `config` (default Zobrist keys) that records its progress samples, taken
/// every `interval`.
fn recorded_run(
    gpu: &mut VulkanBackend,
    pos: &Position,
    depth: u32,
    config: &TtConfig,
    interval: Duration,
) -> (
    Vec<(Move, Counts)>,
    Option<TtStatsSnapshot>,
    Vec<ProgressSample>,
) {
    let samples = Mutex::new(Vec::<ProgressSample>::new());
    let never = AtomicBool::new(false);
    let record = |sample: ProgressSample| samples.lock().expect("unpoisoned").push(sample);
    let control = RunControl {
        cancel: &never,
        progress_interval: interval,
        on_progress: &record,
        on_root_done: &|_, _| {},
    };
    let (divide, stats) = gpu_run(gpu, pos, depth, config, &Zobrist::default(), &control);
    (divide, stats, samples.into_inner().expect("unpoisoned"))
}

/// Runs `config` on the GPU and checks it counts exactly `expected` per root move and that its
/// statistics add up.
fn exact_gpu_run(
    gpu: &mut VulkanBackend,
    pos: &Position,
    depth: u32,
    config: &TtConfig,
    expected: &[(Move, Counts)],
) -> (Vec<(Move, Counts)>, TtStatsSnapshot) {
    let (divide, stats) = gpu_run(
        gpu,
        pos,
        depth,
        config,
        &Zobrist::default(),
        &common::silent_control(),
    );
    let stats = stats.expect("a mode with a table");
    assert_eq!(
        nodes_by_move(&divide),
        nodes_by_move(expected),
        "{config:?} on {} depth {depth}",
        pos.to_fen()
    );
    assert_consistent(&stats, config, depth);
    (divide, stats)
}
