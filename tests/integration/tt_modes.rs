//! The transposition table modes through the parallel driver: every mode counts exactly what
//! `--tt off` counts, `certify` catches the false hits a narrowed verifier lets through, the
//! statistics add up, and counts above 2^64 survive.

use crate::common::{
    assert_consistent, config, fast_nodes, nodes, position, random_positions, silent_control,
    total_fast_nodes, total_nodes, tt_divide,
};
use vkperft::chess::perft::perft;
use vkperft::chess::zobrist::DEFAULT_SEED;
use vkperft::chess::{Move, Position, Zobrist};
use vkperft::count::Counts;
use vkperft::cpu::parallel::divide;
use vkperft::cpu::search::TtSearch;
use vkperft::tt::{
    Probe, TranspositionTable, TtConfig, TtMode, TtStatsSnapshot, DEFAULT_VERIFIER_BITS,
};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;
const TABLE_MODES: [TtMode; 3] = [TtMode::Fast, TtMode::Verified, TtMode::Certify];

/// The exact divide: `--tt off`.
fn plain_divide(pos: &Position, depth: u32) -> Vec<(Move, Counts)> {
    tt_divide(
        pos,
        depth,
        2,
        &TtConfig::new(TtMode::Off, 0),
        &Zobrist::default(),
    )
    .0
}

/// Runs `config` and checks that it counts exactly `expected` per root move and that its
/// statistics add up; returns the divide and the statistics.
fn exact_run(
    pos: &Position,
    depth: u32,
    threads: usize,
    config: &TtConfig,
    zobrist: &Zobrist,
    expected: &[(Move, Counts)],
) -> (Vec<(Move, Counts)>, TtStatsSnapshot) {
    let (divide, stats) = tt_divide(pos, depth, threads, config, zobrist);
    let stats = stats.expect("a mode with a table");
    assert_eq!(
        nodes(&divide),
        nodes(expected),
        "{config:?} on {} depth {depth}, {threads} threads",
        pos.to_fen()
    );
    assert_consistent(&stats, config, depth);
    (divide, stats)
}

/// Each mode at full width, against `off`, per root move. Depths are chosen so that the driver's
/// tasks still have a subtree of depth 3 below them: at depth 4 every probed position is two
/// plies from the root, where positions cannot transpose, and the table would never hit.
fn modes_equal_off(name: &str, depth: u32) {
    let pos = position(name);
    let expected = plain_divide(&pos, depth);
    let zobrist = Zobrist::default();
    for mode in TABLE_MODES {
        let config = config(mode, 4 * MIB, DEFAULT_VERIFIER_BITS);
        let (divide, stats) = exact_run(&pos, depth, 2, &config, &zobrist, &expected);
        assert!(stats.total.hits > 0, "{name} {mode}: no hits");
        assert_eq!(stats.total.false_hits, 0, "{name} {mode}");
        assert_eq!(fast_nodes(&divide), nodes(&expected), "{name} {mode}");
    }
}

#[test]
fn modes_equal_off_startpos() {
    modes_equal_off("startpos", 5);
}

#[test]
fn modes_equal_off_kiwipete() {
    modes_equal_off("kiwipete", 5);
}

#[test]
fn modes_equal_off_position3() {
    modes_equal_off("position3", 6);
}

#[test]
fn modes_equal_off_position4() {
    modes_equal_off("position4", 5);
}

#[test]
fn modes_equal_off_position5() {
    modes_equal_off("position5", 5);
}

#[test]
fn modes_equal_off_position6() {
    modes_equal_off("position6", 5);
}

/// Random walk positions at depths 3 to 5 (only depth 5 can hit, see [`modes_equal_off`]); one
/// small table per mode is shared by all positions, so entries of earlier roots are met too.
#[test]
fn modes_equal_off_on_random_walks() {
    let zobrist = Zobrist::default();
    let tables: Vec<TranspositionTable> = TABLE_MODES
        .iter()
        .map(|&mode| {
            TranspositionTable::new(&config(mode, MIB, DEFAULT_VERIFIER_BITS)).expect("fits")
        })
        .collect();
    let control = silent_control();
    for (index, pos) in random_positions(0x7474_6d6f_6465, 120, 12)
        .iter()
        .enumerate()
    {
        let mut depth = 3 + index as u32 % 3;
        // Keeps the test short: depth 5 only where it stays below a few million nodes.
        if depth == 5 && perft(pos, 4) > 300_000 {
            depth = 4;
        }
        let expected = plain_divide(pos, depth);
        for table in &tables {
            let search = TtSearch {
                table,
                zobrist: &zobrist,
            };
            let counts =
                divide(pos, depth, 2, &search, &zobrist, &control).expect("never cancelled");
            let context = format!("{} on {} depth {depth}", table.mode(), pos.to_fen());
            assert_eq!(counts, expected, "{context}");
        }
    }
    for table in &tables {
        let stats = table.snapshot();
        assert_consistent(&stats, &config(table.mode(), MIB, DEFAULT_VERIFIER_BITS), 5);
        assert!(stats.total.hits > 0, "{}: no hits", table.mode());
        assert_eq!(stats.total.false_hits, 0, "{}", table.mode());
    }
}

/// A verifier narrowed to 8..12 bits on a small table: fast hits of other positions' entries
/// become common. `certify` must count them and stay exact while its fast total may be off;
/// `verified` compares exact keys and stays exact; `fast` must at least finish. Each
/// configuration expects at least about 19 false hits (`wrong_occupied_probes / 2^bits`) and
/// showed 15 or more in trials, so none of them passing by chance is negligible.
#[test]
fn narrowed_verifier() {
    let zobrist = Zobrist::default();
    let mut certify_drifted = false;
    for (name, depth, bits, bytes) in [
        ("startpos", 5, 8, 64 * KIB),
        ("kiwipete", 5, 8, 64 * KIB),
        ("kiwipete", 5, 10, 256 * KIB),
        ("kiwipete", 5, 12, MIB),
    ] {
        let pos = position(name);
        let expected = plain_divide(&pos, depth);
        let exact = total_nodes(&expected);
        let context = format!("{name} depth {depth}, {bits} bits, {bytes} bytes");

        let certify = config(TtMode::Certify, bytes, bits);
        let (divide, stats) = exact_run(&pos, depth, 2, &certify, &zobrist, &expected);
        assert!(stats.total.false_hits > 0, "certify, {context}: {stats:?}");
        let certify_fast = total_fast_nodes(&divide);
        certify_drifted |= certify_fast != exact;

        let verified = config(TtMode::Verified, bytes, bits);
        let (_, stats) = exact_run(&pos, depth, 2, &verified, &zobrist, &expected);
        assert!(stats.total.wrong_occupied_probes > 0, "verified, {context}");

        let fast = config(TtMode::Fast, bytes, bits);
        let (divide, stats) = tt_divide(&pos, depth, 2, &fast, &zobrist);
        assert_consistent(&stats.expect("a fast table"), &fast, depth);
        println!(
            "{context}: exact {exact}, certify's fast total {certify_fast}, fast {}",
            total_nodes(&divide)
        );
    }
    assert!(certify_drifted, "no certify fast total differed from exact");
}

/// In a verified table of a few slots nearly every probe meets another position's entry; those
/// probes are counted, and the count still comes out exact.
#[test]
fn tiny_verified_table_counts_wrong_occupied_probes() {
    let pos = position("kiwipete");
    let expected = plain_divide(&pos, 5);
    let tiny = config(TtMode::Verified, 16 * 64, DEFAULT_VERIFIER_BITS);
    let (_, stats) = exact_run(&pos, 5, 2, &tiny, &Zobrist::default(), &expected);
    assert_eq!(stats.slots, 16);
    assert!(
        stats.total.wrong_occupied_probes > stats.total.probes / 2,
        "{stats:?}"
    );
    assert!(stats.total.overwrites > 0, "{stats:?}");
}

/// Heavy replacement under contention: tables of a few hundred slots, 2 and 8 threads, every
/// mode, on several positions. Every total must stay exact per root move.
#[test]
fn tiny_tables_under_contention() {
    let zobrist = Zobrist::default();
    for (name, depth) in [("startpos", 5), ("position3", 6), ("position4", 5)] {
        let pos = position(name);
        let expected = plain_divide(&pos, depth);
        for threads in [2, 8] {
            for config in [
                config(TtMode::Fast, 4 * KIB, DEFAULT_VERIFIER_BITS),
                config(TtMode::Verified, 16 * KIB, DEFAULT_VERIFIER_BITS),
                config(TtMode::Certify, 16 * KIB, DEFAULT_VERIFIER_BITS),
                config(TtMode::Certify, 16 * KIB, 8),
            ] {
                let (divide, stats) = exact_run(&pos, depth, threads, &config, &zobrist, &expected);
                let context = format!("{name} {config:?} {threads} threads");
                assert!(stats.total.hits > 0, "{context}");
                assert!(stats.total.overwrites > 0, "{context}");
                if config.verifier_bits == DEFAULT_VERIFIER_BITS {
                    assert_eq!(fast_nodes(&divide), nodes(&expected), "{context}");
                }
            }
        }
    }
}

/// Totals are 128-bit: sums past `u64::MAX` carry exactly.
#[test]
fn counts_add_past_64_bits() {
    let max = u128::from(u64::MAX);
    let sum: Counts = [
        Counts::exact(max),
        Counts::exact(max),
        Counts {
            nodes: 2,
            fast_nodes: 3,
            ..Counts::default()
        },
    ]
    .into_iter()
    .sum();
    assert_eq!(sum.nodes, 1u128 << 65);
    assert_eq!(sum.fast_nodes, (1u128 << 65) + 1);

    // perft(15) of the start position, from 20 equal parts and the remainder.
    let perft_15: u128 = 2_015_099_950_053_364_471_960;
    let mut total = Counts::default();
    for _ in 0..20 {
        total += Counts::exact(perft_15 / 20);
    }
    total += Counts::exact(perft_15 % 20);
    assert_eq!(total, Counts::exact(perft_15));
    assert_eq!(total.nodes.to_string(), "2015099950053364471960");
}

/// A count above `u64::MAX` does not fit the 64-bit payload of `fast` and `certify`: it is
/// skipped and counted; `verified` keeps 128-bit counts and returns it exactly.
#[test]
fn counts_past_64_bits_in_the_table() {
    let zobrist = Zobrist::default();
    let pos = Position::startpos();
    let depth = 14;
    let hash = zobrist.hash(&pos) ^ zobrist.depth_key(depth);
    let big = (1u128 << 64) + 12_345;
    for mode in TABLE_MODES {
        let table = TranspositionTable::new(&config(mode, 64 * KIB, 64)).expect("fits");
        let stats = table.thread_stats();
        table.store(hash, &pos, depth, big, big, &stats);
        let probe = table.probe(hash, &pos, depth, &stats);
        let total = table.snapshot().total;
        if mode == TtMode::Verified {
            assert_eq!(
                probe,
                Probe::Hit {
                    exact: big,
                    fast: big
                }
            );
            assert_eq!((total.stores, total.payload_skips), (1, 0), "{mode}");
        } else {
            assert_eq!(probe, Probe::Miss, "{mode}");
            assert_eq!((total.stores, total.payload_skips), (0, 1), "{mode}");
            assert_eq!(total.used_slots, 0, "{mode}");
        }
        assert_eq!((total.probes, total.false_hits), (1, 0), "{mode}");
    }
}

/// The Zobrist seed changes every key, never a count.
#[test]
fn seeds_do_not_change_totals() {
    for (name, depth) in [("startpos", 5), ("position4", 5)] {
        let pos = position(name);
        let expected = plain_divide(&pos, depth);
        for mode in TABLE_MODES {
            let config = config(mode, MIB, DEFAULT_VERIFIER_BITS);
            let runs: Vec<Vec<(Move, Counts)>> = [DEFAULT_SEED, 1, 0xdead_beef]
                .into_iter()
                .map(|seed| exact_run(&pos, depth, 2, &config, &Zobrist::new(seed), &expected).0)
                .collect();
            for divide in &runs {
                assert_eq!(divide, &runs[0], "{name} {mode}");
            }
        }
    }
}
