//! The work counters of both backends: without a table the leaf count-ops are perft(N-1)
//! (published values), a table only lowers them, the GPU's positions add up level by level,
//! and `--json` carries every key.

use crate::common::{self, config, position, run_vkperft, silent_control};
use serde_json::Value;
use vkperft::chess::perft;
use vkperft::chess::{Position, Zobrist};
use vkperft::cpu::parallel::divide_with_work;
use vkperft::cpu::search::{PlainSearch, TtSearch};
use vkperft::tt::{TranspositionTable, TtMode, DEFAULT_VERIFIER_BITS};
use vkperft::work_counters::{WorkCounters, JSON_KEYS};

const NAMES: [&str; 4] = ["startpos", "kiwipete", "position3", "position4"];

fn cpu_work(pos: &Position, depth: u32, mode: TtMode) -> WorkCounters {
    let zobrist = Zobrist::default();
    let control = silent_control();
    if mode == TtMode::Off {
        return divide_with_work(pos, depth, 2, &PlainSearch, &zobrist, &control)
            .expect("never cancelled")
            .1;
    }
    let table = TranspositionTable::new(&config(mode, 1 << 20, DEFAULT_VERIFIER_BITS))
        .expect("a small table");
    let search = TtSearch {
        table: &table,
        zobrist: &zobrist,
    };
    divide_with_work(pos, depth, 2, &search, &zobrist, &control)
        .expect("never cancelled")
        .1
}

fn gpu_work(pos: &Position, depth: u32, mode: TtMode) -> WorkCounters {
    let mut gpu = common::shared_vulkan_backend();
    gpu.prepare_table(
        &config(mode, 1 << 20, DEFAULT_VERIFIER_BITS),
        &Zobrist::default(),
    )
    .expect("a small table");
    gpu.divide(pos, depth, &silent_control())
        .expect("the GPU run succeeds");
    gpu.work_counters().expect("readable counters")
}

#[test]
fn without_a_table_leaf_count_ops_and_null_counted_moves_are_perft_of_one_ply_less() {
    for name in NAMES {
        let pos = position(name);
        for depth in 1..=4 {
            let expected = perft::perft(&pos, depth - 1);
            let cpu = cpu_work(&pos, depth, TtMode::Off);
            assert_eq!(
                cpu.leaf_count_ops + cpu.null_counted,
                expected,
                "cpu {name} {depth}"
            );
            if depth == 4 {
                assert!(cpu.null_counted > 0, "cpu {name} {depth}");
            }
            // The GPU's leaf counts without making the moves the CPU does, by the same rule.
            let gpu = gpu_work(&pos, depth, TtMode::Off);
            assert_eq!(gpu.leaf_count_ops, cpu.leaf_count_ops, "gpu {name} {depth}");
            assert_eq!(gpu.null_counted, cpu.null_counted, "gpu {name} {depth}");
        }
    }
}

#[test]
fn a_table_lowers_the_leaf_count_ops_and_the_gpu_levels_add_up() {
    let pos = position("startpos");
    let depth = 5;
    let off = perft::perft(&pos, depth - 1);
    for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
        let cpu = cpu_work(&pos, depth, mode);
        assert!(cpu.leaf_count_ops < off, "cpu {mode}: {cpu:?}");
        assert!(cpu.hits_by_depth.get(2) > 0, "cpu {mode}");
        assert_eq!(
            cpu.positions_expanded.get(2),
            cpu.probes_by_depth.get(2) - cpu.hits_by_depth.get(2)
        );

        let gpu = gpu_work(&pos, depth, mode);
        assert!(gpu.leaf_count_ops < off, "gpu {mode}: {gpu:?}");
        let chunks = gpu.chunks.as_ref().expect("the GPU counts its chunks");
        assert_eq!(chunks.overflows, 0);
        assert_eq!(chunks.wasted_positions, 0);
        // Every position of every level, the items included, is a duplicate, a table hit, or
        // expanded (levels below the table's depths are not written here).
        assert!(gpu.launch_depth >= 3, "{gpu:?}");
        let positions = gpu.items + chunks.positions_written.total();
        let hits = gpu.hits_by_depth.total();
        assert_eq!(
            positions,
            chunks.duplicates + hits + gpu.positions_expanded.total(),
            "gpu {mode}: {gpu:?}"
        );
        assert_eq!(gpu.probes_by_depth.total(), positions - chunks.duplicates);
        assert!(chunks.submissions > 0 && chunks.dispatches >= chunks.submissions);
        assert!(chunks.host_waits > 0);
        // A compact leaf entry and its two dedup slots.
        assert_eq!(chunks.leaf_bytes_per_position(), Some(16.0), "gpu {mode}");
        assert!(chunks.bytes_written > chunks.leaf_level_bytes);
    }
}

#[test]
fn without_a_table_a_leaf_level_position_takes_its_entry_alone() {
    let gpu = gpu_work(&position("kiwipete"), 5, TtMode::Off);
    let chunks = gpu.chunks.as_ref().expect("the GPU counts its chunks");
    assert!(gpu.launch_depth >= 3, "{gpu:?}");
    assert_eq!(chunks.leaf_bytes_per_position(), Some(8.0));
}

#[test]
fn json_carries_the_work_object_on_both_backends() {
    for backend in ["cpu", "vulkan"] {
        let args = [
            "perft",
            "--depth",
            "4",
            "--backend",
            backend,
            "--tt",
            "fast",
            "--json",
        ];
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let value: Value = serde_json::from_str(&run.stdout).expect("one JSON object");
        let work = &value["work"];
        for key in JSON_KEYS {
            assert!(work.get(key).is_some(), "{backend}: no {key} in {work}");
        }
        assert_eq!(
            work.as_object().map(|object| object.len()),
            Some(JSON_KEYS.len())
        );
        let ops: u128 = work["leaf_count_ops"]
            .as_str()
            .and_then(|text| text.parse().ok())
            .expect("a decimal string");
        assert!(ops > 0 && ops <= 8_902, "{backend}: {ops}");
        assert_eq!(work["submissions"].is_null(), backend == "cpu");
        if backend == "vulkan" {
            // 32 bytes per position of a chunk with a table.
            let positions = work["chunk_positions"].as_u64().expect("a number");
            assert_eq!(work["chunk_bytes"].as_u64(), Some(positions * 32));
            assert!(
                ["paced", "whole"].contains(&work["submission_policy"].as_str().unwrap_or("")),
                "{work}"
            );
        }
    }
}
