//! Every table mode on the GPU against `--tt off` and the CPU per root move: reference,
//! random and Chess960 positions, both slider lookups, the chunk capacity each mode leaves, and
//! a narrowed verifier.

use super::*;

/// A chunk keeps 20 bytes per position without a table, 32 with one and 36 in certify (a leaf
/// entry of 8 bytes, 16 with dedup slots, and a quarter of an inner position): the same budget
/// holds 1.6 times as many positions without a table, and the buffers follow the mode from run
/// to run, every run exact.
#[test]
fn chunk_capacity_follows_what_the_table_mode_keeps() {
    let budget: u64 = 32 << 20;
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(budget),
        ..GpuOptions::default()
    })
    .expect("the device opens");
    assert_eq!(u64::from(gpu.runner().capacity()), budget / 20);
    let pos = position("kiwipete");
    let depth = 4;
    let expected = cpu_divide(&pos, depth);
    for (mode, bytes) in [
        (TtMode::Certify, 36),
        (TtMode::Off, 20),
        (TtMode::Fast, 32),
        (TtMode::Verified, 32),
        (TtMode::Off, 20),
    ] {
        let table = config(mode, MIB, DEFAULT_VERIFIER_BITS);
        let (divide, stats) = gpu_run(
            &mut gpu,
            &pos,
            depth,
            &table,
            &Zobrist::default(),
            &common::silent_control(),
        );
        assert_eq!(u64::from(gpu.runner().capacity()), budget / bytes, "{mode}");
        assert_eq!(nodes_by_move(&divide), nodes_by_move(&expected), "{mode}");
        assert_eq!(stats.is_some(), mode != TtMode::Off, "{mode}");
    }
}

/// Positions with many transpositions, at depths where later chunks meet positions that
/// earlier ones stored (transpositions within a chunk are merged before the table is probed).
#[test]
fn every_mode_equals_off_and_the_cpu_per_root_move() {
    let mut gpu = backend();
    for (name, depth) in [
        ("startpos", 5),
        ("kiwipete", 5),
        ("position3", 6),
        ("position4", 5),
        ("position5", 5),
    ] {
        let pos = position(name);
        let expected = cpu_divide(&pos, depth);
        let (off, stats) = gpu_run(
            &mut gpu,
            &pos,
            depth,
            &TtConfig::new(TtMode::Off, 0),
            &Zobrist::default(),
            &common::silent_control(),
        );
        assert!(stats.is_none());
        assert_eq!(nodes_by_move(&off), nodes_by_move(&expected), "off, {name}");
        for mode in TABLE_MODES {
            let table = config(mode, 16 * MIB, DEFAULT_VERIFIER_BITS);
            let (divide, stats) = exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
            assert_eq!(
                total_fast_nodes(&divide),
                total_nodes(&divide),
                "{mode} {name}: a full verifier has no false hits"
            );
            assert!(stats.total.hits > 0, "{mode} {name}: {stats:?}");
            assert_eq!(stats.total.false_hits, 0, "{mode} {name}");
        }
    }
}

/// The slider lookups (what GPUs run; lavapipe runs fills unless told) with every table mode.
#[test]
fn slider_lookups_with_every_table_mode() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        slider_attacks: Some(SliderAttacks::Lookups),
        ..GpuOptions::default()
    })
    .expect("the device opens");
    for (name, depth) in [("kiwipete", 4), ("position3", 5), ("position4", 4)] {
        let pos = position(name);
        let expected = cpu_divide(&pos, depth);
        for mode in TABLE_MODES {
            let table = config(mode, 16 * MIB, DEFAULT_VERIFIER_BITS);
            exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
        }
    }
}

#[test]
fn random_positions_in_every_mode_equal_the_cpu() {
    let mut gpu = backend();
    for (i, pos) in random_positions(0x6770_755f_7474, 40, 30)
        .iter()
        .enumerate()
    {
        let depth = 3 + (i % 2) as u32;
        let expected = cpu_divide(pos, depth);
        for mode in TABLE_MODES {
            let table = config(mode, MIB, DEFAULT_VERIFIER_BITS);
            exact_gpu_run(&mut gpu, pos, depth, &table, &expected);
        }
    }
}

/// Chess960 on the GPU: the 960 start positions at their published depth-4 perft, and random
/// Chess960 games (castles of every shape) per root move, in `off` and every table mode.
#[test]
fn chess960_in_every_mode_equals_the_cpu() {
    let mut gpu = backend();
    let starts = vkperft::reference::chess960::start_positions();
    let mut positions: Vec<Position> = starts
        .iter()
        .map(|start| Position::from_fen(start.xfen).expect("a start position"))
        .collect();
    let published = positions.len();
    positions.extend(
        CHESS960_SHARP_FENS
            .iter()
            .map(|fen| Position::from_fen(fen).expect("a test FEN")),
    );
    positions.extend(random_chess960_positions(0x3936_3067, 24, 30));
    for (i, pos) in positions.iter().enumerate() {
        let depth = if i < published { 4 } else { 3 + (i % 2) as u32 };
        let expected = cpu_divide(pos, depth);
        if i < published {
            let start = &starts[i];
            assert_eq!(
                total_nodes(&expected),
                u128::from(start.perft[3]),
                "start position {}",
                start.index
            );
        }
        let (off, _) = gpu_run(
            &mut gpu,
            pos,
            depth,
            &TtConfig::new(TtMode::Off, 0),
            &Zobrist::default(),
            &common::silent_control(),
        );
        assert_eq!(
            nodes_by_move(&off),
            nodes_by_move(&expected),
            "off, {}",
            pos.to_fen()
        );
        for mode in TABLE_MODES {
            let table = config(mode, MIB, DEFAULT_VERIFIER_BITS);
            exact_gpu_run(&mut gpu, pos, depth, &table, &expected);
        }
    }
}

/// With a 12-bit verifier and a small table, certify counts false hits and stays exact,
/// verified stays exact, and fast finishes (its total may drift).
#[test]
fn narrowed_verifier_on_the_gpu() {
    let mut gpu = backend();
    let pos = position("kiwipete");
    let depth = 5;
    let expected = cpu_divide(&pos, depth);
    let exact: u128 = total_nodes(&expected);

    let certify = config(TtMode::Certify, MIB, 12);
    let (divide, stats) = exact_gpu_run(&mut gpu, &pos, depth, &certify, &expected);
    assert!(stats.total.false_hits > 0, "certify: {stats:?}");
    let certify_fast = total_fast_nodes(&divide);

    let verified = config(TtMode::Verified, MIB, 12);
    let (_, stats) = exact_gpu_run(&mut gpu, &pos, depth, &verified, &expected);
    assert!(stats.total.wrong_occupied_probes > 0, "verified: {stats:?}");

    let fast = config(TtMode::Fast, MIB, 12);
    let (divide, stats) = gpu_run(
        &mut gpu,
        &pos,
        depth,
        &fast,
        &Zobrist::default(),
        &common::silent_control(),
    );
    let stats = stats.expect("a fast table");
    assert_consistent(&stats, &fast, depth);
    assert!(total_nodes(&divide) > 0);
    // What the fast table alone would have answered drifted from the exact count.
    assert_ne!(certify_fast, exact, "certify's fast total");
}
