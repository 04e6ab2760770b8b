//! The GPU table itself: split by remaining depth, kept from run to run, larger than one
//! storage buffer, tiny under contention, and none left behind when a table fails or `off` runs.

use super::*;

/// Every split of the fast table's memory between depth 2 and the deeper depths counts the
/// exact divide; under `fixed` and `distinct` depth 2 probes and hits its own compact slots (at
/// 48 verifier bits), under `shared` it has none. The other modes never split.
#[test]
fn every_table_split_equals_the_cpu_per_root_move() {
    let pos = position("kiwipete");
    let depth = 5;
    let expected = cpu_divide(&pos, depth);
    let fast = config(TtMode::Fast, 4 * MIB, DEFAULT_VERIFIER_BITS);
    let lines = (4 * MIB / 64) as u64;
    for split in TableSplit::ALL {
        let mut gpu = VulkanBackend::new(&GpuOptions {
            table_split: split,
            ..GpuOptions::default()
        })
        .expect("the test device opens");
        let (_, stats) = exact_gpu_run(&mut gpu, &pos, depth, &fast, &expected);
        let depth_two = stats
            .per_depth
            .iter()
            .find(|d| d.depth == 2)
            .expect("depth 2 probed");
        match split {
            TableSplit::Shared => {
                assert_eq!(stats.compact_slots, 0, "{split}: {stats:?}");
                assert_eq!(depth_two.verifier_bits, 64);
            }
            TableSplit::Fixed => assert_eq!(stats.compact_slots, lines / 2 * 8, "{split}"),
            TableSplit::Distinct => {
                // Kiwipete's depth-2 positions far outnumber the deeper ones.
                assert!(stats.compact_slots > lines / 2 * 8, "{split}: {stats:?}");
                assert!(stats.compact_slots < lines * 8, "{split}: {stats:?}");
            }
        }
        if split != TableSplit::Shared {
            assert_eq!(depth_two.verifier_bits, 48, "{split}");
            assert!(depth_two.counts.hits > 0, "{split}: {stats:?}");
        }
        for mode in [TtMode::Verified, TtMode::Certify] {
            let table = config(mode, 4 * MIB, DEFAULT_VERIFIER_BITS);
            let (_, stats) = exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
            assert_eq!(stats.compact_slots, 0, "{split} {mode}");
        }
    }
}

/// A table kept from one run to the next (the engine's `keep_table`, as work units use it)
/// keeps its share of compact lines and its entries: the same run again finds every item in
/// the table and misses nothing, and another position's run is exact with the same share.
#[test]
fn a_kept_table_keeps_its_share_and_its_entries() {
    let mut gpu = backend();
    let fast = config(TtMode::Fast, 16 * MIB, DEFAULT_VERIFIER_BITS);
    let kiwipete = position("kiwipete");
    let expected = cpu_divide(&kiwipete, 4);
    let (_, first) = exact_gpu_run(&mut gpu, &kiwipete, 4, &fast, &expected);
    assert!(first.compact_slots > 0, "{first:?}");
    let control = common::silent_control();
    let again = gpu.divide(&kiwipete, 4, &control).expect("runs");
    assert_eq!(nodes_by_move(&again), nodes_by_move(&expected));
    let kept = gpu
        .runner()
        .tt_snapshot()
        .expect("read back")
        .expect("a table");
    assert_eq!(kept.compact_slots, first.compact_slots);
    assert_eq!(kept.total.misses, first.total.misses, "{kept:?}");
    assert!(kept.total.hits > first.total.hits, "{kept:?}");
    let other = position("position3");
    let divide = gpu.divide(&other, 5, &control).expect("runs");
    assert_eq!(
        nodes_by_move(&divide),
        nodes_by_move(&cpu_divide(&other, 5))
    );
    let kept = gpu
        .runner()
        .tt_snapshot()
        .expect("read back")
        .expect("a table");
    assert_eq!(kept.compact_slots, first.compact_slots);
}

/// Tables over lavapipe's 128 MiB maxStorageBufferRange are split into several buffers and
/// give the same answers.
#[test]
fn tables_larger_than_one_storage_buffer() {
    let mut gpu = backend();
    let pos = position("position3");
    let depth = 6;
    let expected = cpu_divide(&pos, depth);
    for mode in TABLE_MODES {
        let table = config(mode, 400 * MIB, DEFAULT_VERIFIER_BITS);
        let (_, stats) = exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
        assert!(
            gpu.runner().tt_segments() >= 3,
            "{mode}: {} segments",
            gpu.runner().tt_segments()
        );
        assert!(stats.total.hits > 0, "{mode}: {stats:?}");
    }
}

/// A few buckets written by a whole dispatch at once: heavy replacement and lock contention, and
/// every total still exact.
#[test]
fn tiny_tables_under_contention() {
    let mut gpu = backend();
    for (name, depth) in [("kiwipete", 4), ("position4", 5)] {
        let pos = position(name);
        let expected = cpu_divide(&pos, depth);
        for mode in TABLE_MODES {
            for buckets in [1, 4, 64] {
                let bytes = buckets * vkperft::tt::bucket_bytes(mode).expect("a table mode");
                let ways = vkperft::tt::ways(mode).expect("a table mode");
                let table = config(mode, bytes, DEFAULT_VERIFIER_BITS);
                let (_, stats) = exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
                // Compact lines hold twice the entries (assert_consistent checks how many).
                assert_eq!(
                    stats.slots - stats.compact_slots / 2,
                    (buckets * ways) as u64
                );
                assert!(stats.total.overwrites > 0, "{mode} {buckets}: {stats:?}");
            }
        }
    }
}

/// A table that cannot be had after another was in use leaves the backend with no table: the
/// shaders must not keep reading and writing the freed memory of the old one.
#[test]
fn a_failed_table_leaves_no_table_behind() {
    let mut gpu = backend();
    let pos = position("kiwipete");
    let expected = cpu_divide(&pos, 4);
    exact_gpu_run(
        &mut gpu,
        &pos,
        4,
        &config(TtMode::Fast, MIB, DEFAULT_VERIFIER_BITS),
        &expected,
    );
    assert_ne!(
        gpu.runner().table_params_in_use().expect("read back").mode,
        0
    );
    let beyond_the_device = config(TtMode::Verified, usize::MAX / 2, DEFAULT_VERIFIER_BITS);
    let failed = gpu.prepare_table(&beyond_the_device, &Zobrist::default());
    assert!(
        matches!(failed, Err(GpuError::TableTooLarge { .. })),
        "{failed:?}"
    );
    let params = gpu.runner().table_params_in_use().expect("read back");
    assert_eq!(params.mode, 0, "the shaders still see a table: {params:?}");
    assert_eq!(params.buckets, 0, "{params:?}");
    let divide = gpu
        .divide(&pos, 4, &common::silent_control())
        .expect("runs without a table");
    assert_eq!(nodes_by_move(&divide), nodes_by_move(&expected));
    assert!(gpu.runner().tt_snapshot().expect("no statistics").is_none());
}

/// After a run with a table, `off` runs without one.
#[test]
fn off_after_a_table_has_no_table() {
    let mut gpu = backend();
    let pos = position("position4");
    let expected = cpu_divide(&pos, 4);
    exact_gpu_run(
        &mut gpu,
        &pos,
        4,
        &config(TtMode::Verified, MIB, DEFAULT_VERIFIER_BITS),
        &expected,
    );
    let (divide, stats) = gpu_run(
        &mut gpu,
        &pos,
        4,
        &TtConfig::new(TtMode::Off, 0),
        &Zobrist::default(),
        &common::silent_control(),
    );
    assert!(stats.is_none());
    assert_eq!(nodes_by_move(&divide), nodes_by_move(&expected));
}

/// Counts no run reaches on this device, from a crafted entry: a depth-3 position counted
/// 2^64 + 7 (`verified`) makes its parents' 128-bit sums (`add128`) carry past 2^64, and one at
/// the largest count a fast entry holds (`fast`) gives its parents counts that no fast entry
/// holds (payload skips). Every root move then counts its true perft plus the crafted excess
/// once for each time its subtree met the crafted position in the table, exactly. (Depth 2 is
/// no place for such counts: a depth-2 subtree has fewer than 2^16 leaves, and the leaf stage
/// adds them into their parent in 32 bits.)
#[test]
fn crafted_counts_carry_past_two_to_the_64_and_skip_the_payload() {
    let zobrist = Zobrist::default();
    let root = Position::startpos();
    // The crafted position at remaining depth 3, deeper than the host expands: the device's
    // expand stage probes it.
    let depth = 6;
    let mut crafted = root;
    for uci in ["e2e4", "e7e5", "g1f3"] {
        let mv = legal_moves(&crafted)
            .iter()
            .copied()
            .find(|m| m.to_string() == uci)
            .expect("a legal move");
        crafted = crafted.play(mv);
    }
    let key = zobrist.hash(&crafted) ^ zobrist.depth_key(3);
    let truth = nodes_by_move(&cpu_divide(&root, depth));
    let true_count = perft::perft(&crafted, 3);
    let mut gpu = VulkanBackend::new(&GpuOptions {
        table_split: TableSplit::Shared,
        ..GpuOptions::default()
    })
    .expect("the test device opens");
    for (mode, count) in [
        (TtMode::Verified, (1u128 << 64) + 7),
        (TtMode::Fast, u128::from(MAX_FAST_COUNT)),
    ] {
        let table_config = config(mode, MIB, DEFAULT_VERIFIER_BITS);
        let table = TranspositionTable::new(&table_config).expect("the test table fits");
        table.store(key, &crafted, 3, count, count, &table.thread_stats());
        gpu.prepare_table(&table_config, &zobrist)
            .expect("the table fits");
        gpu.runner_mut()
            .load_table(&table)
            .expect("the same configuration");
        let on_gpu = gpu
            .divide(&root, depth, &common::silent_control())
            .expect("the run ends");
        let excess = count - true_count;
        let mut meetings = 0;
        for (mv, nodes) in nodes_by_move(&on_gpu) {
            let extra = nodes
                .checked_sub(truth[&mv])
                .unwrap_or_else(|| panic!("{mode} {mv}: {nodes} < {}", truth[&mv]));
            assert_eq!(extra % excess, 0, "{mode} {mv}: {nodes}");
            meetings += extra / excess;
        }
        assert!(meetings > 0, "{mode}: the crafted entry was never met");
        let stats = gpu
            .runner()
            .tt_snapshot()
            .expect("read back")
            .expect("a table");
        match mode {
            TtMode::Verified => assert!(total_nodes(&on_gpu) > 1 << 64, "{mode}"),
            _ => assert!(stats.total.payload_skips > 0, "{mode}: {stats:?}"),
        }
    }
}
