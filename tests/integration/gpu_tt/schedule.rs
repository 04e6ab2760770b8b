//! Chunks and the table: progress with statistics, transpositions among the host's plies,
//! tiny budgets that overflow and split, dispatches in parts, and overflowed chunks' probes.

use super::*;

/// Progress samples carry the GPU table's statistics while the run goes on.
#[test]
fn progress_reports_the_gpu_table_statistics() {
    let mut gpu = backend();
    let pos = Position::startpos();
    let table = config(TtMode::Certify, 16 * MIB, DEFAULT_VERIFIER_BITS);
    let (divide, stats, samples) = recorded_run(&mut gpu, &pos, 5, &table, Duration::ZERO);
    assert_eq!(total_nodes(&divide), 4_865_609);
    assert!(samples.len() > 2, "{} samples", samples.len());
    let probes: Vec<u64> = samples
        .iter()
        .map(|s| {
            s.tt.as_ref()
                .expect("statistics in every sample")
                .total
                .probes
        })
        .collect();
    assert!(probes.windows(2).all(|w| w[0] <= w[1]), "{probes:?}");
    let last = samples.last().and_then(|s| s.tt.as_ref());
    assert_eq!(last, stats.as_ref());
}

/// The host's items are merged ply by ply down to the launch depth: with a budget of about
/// 6,100 positions with a table (9,800 without), start position perft(6) launches at three
/// plies and hands the GPU the 5,362 distinct positions of ply 3 (A083276) instead of all 8,902
/// paths.
#[test]
fn transpositions_among_host_plies_are_searched_once() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(192 << 10),
        ..GpuOptions::default()
    })
    .expect("a small budget opens");
    let pos = Position::startpos();
    let expected = cpu_divide(&pos, 6);
    for mode in [TtMode::Off, TtMode::Fast] {
        let table = config(mode, 16 * MIB, DEFAULT_VERIFIER_BITS);
        let (divide, _, mut samples) =
            recorded_run(&mut gpu, &pos, 6, &table, Duration::from_secs(3600));
        assert_eq!(nodes_by_move(&divide), nodes_by_move(&expected), "{mode}");
        let last = samples.pop().expect("a final sample");
        assert_eq!(
            (last.tasks_done, last.tasks_total),
            (5_362, 5_362),
            "{mode}"
        );
        let work = gpu.work_counters().expect("counters");
        assert_eq!((work.items, work.launch_depth), (5_362, 3), "{mode}");
        assert_eq!(
            work.chunks.as_ref().expect("GPU chunks").overflows,
            0,
            "{mode}"
        );
        // Each item is searched once: expanded, or a table hit.
        assert_eq!(
            work.positions_expanded.get(3) + work.hits_by_depth.get(3),
            5_362,
            "{mode}: {work:?}"
        );
    }
}

/// A budget of about 1,500 positions with a table: the launch depth keeps the start position's
/// and Kiwipete's items within it, and a narrow root's items overflow, are halved and split on
/// the host, their children merged into waiting items (whose counts go to several root moves);
/// the answers stay exact in every mode.
#[test]
fn a_tiny_memory_budget_with_a_table() {
    let mut tiny = VulkanBackend::new(&GpuOptions {
        device: None,
        memory_budget: Some(48 << 10),
        ..GpuOptions::default()
    })
    .expect("a small budget opens");
    let narrow = Position::from_fen(NARROW_ROOT_FEN).expect("in check");
    for (pos, depth, overflows) in [
        (position("startpos"), 6, false),
        (position("kiwipete"), 5, false),
        (narrow, 5, true),
    ] {
        let expected = cpu_divide(&pos, depth);
        for mode in TABLE_MODES {
            exact_gpu_run(
                &mut tiny,
                &pos,
                depth,
                &config(mode, 4 * MIB, DEFAULT_VERIFIER_BITS),
                &expected,
            );
            assert!(tiny.runner().capacity() < 2_000, "{mode}");
            if overflows {
                let schedule = tiny.schedule_stats();
                assert!(schedule.overflows > 0, "{mode}: {schedule:?}");
                assert!(schedule.host_splits > 0, "{mode}: {schedule:?}");
            }
        }
    }
}

/// Levels dispatched in parts of 1 and of 3 workgroups (as on a device whose limit is below a
/// level's size), and whole chunks in grids that narrow, count exactly, in every mode.
#[test]
fn dispatches_split_at_a_low_workgroup_limit() {
    let pos = position("startpos");
    let depth = 5;
    let expected = cpu_divide(&pos, depth);
    // A fresh device times its first chunk in parts: the first part of a level is 16
    // workgroups, and start position perft 5 has levels of hundreds of positions.
    let unlimited_widest = {
        let mut gpu = VulkanBackend::new(&GpuOptions::default()).expect("the device opens");
        gpu.divide(&pos, depth, &common::silent_control())
            .expect("runs");
        gpu.schedule_stats().widest_dispatch
    };
    assert!(unlimited_widest > 3, "{unlimited_widest}");
    for (limit, submissions) in [1, 3]
        .into_iter()
        .flat_map(|limit| [(limit, Submissions::Paced), (limit, Submissions::Whole)])
    {
        let mut gpu = VulkanBackend::new(&GpuOptions {
            max_workgroups: Some(limit),
            submissions,
            ..GpuOptions::default()
        })
        .expect("the device opens");
        let divide = gpu
            .divide(&pos, depth, &common::silent_control())
            .expect("runs without a table");
        assert_eq!(
            nodes_by_move(&divide),
            nodes_by_move(&expected),
            "off, {limit}, {submissions:?}"
        );
        let schedule = gpu.schedule_stats();
        // Levels in parts are dispatched at most `limit` workgroups at a time; whole chunks
        // indirectly, at most `limit` workgroups along x (or what 65,535 rows need) and as many
        // rows as the level needs.
        assert!(schedule.widest_dispatch <= limit, "{limit}: {schedule:?}");
        if submissions == Submissions::Whole {
            assert_eq!(schedule.whole_chunks, schedule.chunks, "{schedule:?}");
        } else {
            assert!(schedule.widest_dispatch > 0, "{schedule:?}");
        }
        for mode in TABLE_MODES {
            let table = config(mode, MIB, DEFAULT_VERIFIER_BITS);
            let (divide, stats) = exact_gpu_run(&mut gpu, &pos, depth, &table, &expected);
            assert_eq!(total_fast_nodes(&divide), total_nodes(&expected), "{mode}");
            // Paced chunks start at one item, so later chunks find what earlier ones stored;
            // whole, the distinct items all go in one chunk, whose levels are deduplicated.
            if submissions == Submissions::Paced {
                assert!(stats.total.hits > 0, "{mode}, {limit}: {stats:?}");
            }
        }
    }
}

/// A chunk that overflowed is thrown away with its probes: the table's statistics count the
/// misses of the chunks that counted, each of which was expanded, while the work counters count
/// every expansion, the overflowed chunks' too.
#[test]
fn an_overflowed_chunk_leaves_no_probes_in_the_statistics() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(48 << 10),
        ..GpuOptions::default()
    })
    .expect("a small budget opens");
    let pos = Position::from_fen(NARROW_ROOT_FEN).expect("in check");
    let (divide, stats) = gpu_run(
        &mut gpu,
        &pos,
        5,
        &config(TtMode::Fast, 4 * MIB, DEFAULT_VERIFIER_BITS),
        &Zobrist::default(),
        &common::silent_control(),
    );
    assert_eq!(nodes_by_move(&divide), nodes_by_move(&cpu_divide(&pos, 5)));
    let schedule = gpu.schedule_stats();
    assert!(schedule.overflows > 0, "{schedule:?}");
    let work = gpu.work_counters().expect("counters");
    let mut misses = 0;
    for depth in &stats.expect("a table").per_depth {
        let expanded = work.positions_expanded.get(depth.depth);
        assert!(depth.counts.misses <= expanded, "{depth:?}: {work:?}");
        misses += depth.counts.misses;
    }
    assert!(misses < work.positions_expanded.total(), "{work:?}");
}
