//! Move-type statistics through the CPU search, without a table and in every table mode,
//! against the reference classification (`chess::perft::perft_stats`) per root move.

use crate::common::{position, silent_control};
use vkperft::chess::perft::perft_stats;
use vkperft::chess::{Move, MoveStats, Position, Zobrist};
use vkperft::count::Counts;
use vkperft::cpu::parallel::divide;
use vkperft::cpu::search::{PlainStatsSearch, TtSearch};
use vkperft::tt::{TranspositionTable, TtConfig, TtMode};

const POSITIONS: [&str; 6] = [
    "startpos",
    "kiwipete",
    "position3",
    "position4",
    "position5",
    "position6",
];

fn stats_config(mode: TtMode, bytes: usize, verifier_bits: u32) -> TtConfig {
    TtConfig {
        move_stats: true,
        verifier_bits,
        ..TtConfig::new(mode, bytes)
    }
}

/// The divide with statistics, through a table of `config` (`off`: none).
fn stats_divide(pos: &Position, depth: u32, config: &TtConfig) -> Vec<(Move, Counts)> {
    let zobrist = Zobrist::default();
    let control = silent_control();
    let counts = match config.mode {
        TtMode::Off => divide(pos, depth, 2, &PlainStatsSearch, &zobrist, &control),
        _ => {
            let table = TranspositionTable::new(config).expect("the test table fits");
            assert!(table.has_move_stats());
            let search = TtSearch {
                table: &table,
                zobrist: &zobrist,
            };
            divide(pos, depth, 2, &search, &zobrist, &control)
        }
    };
    counts.expect("never cancelled")
}

/// The reference's statistics per root move.
fn reference_divide(pos: &Position, depth: u32) -> Vec<(Move, u128, MoveStats)> {
    vkperft::chess::movegen::legal_moves(pos)
        .iter()
        .map(|&m| {
            let (nodes, stats) = match depth {
                1 => (1, MoveStats::of_move(pos, m)),
                _ => perft_stats(&pos.play(m), depth - 1),
            };
            (m, nodes, stats)
        })
        .collect()
}

fn assert_exact(name: &str, pos: &Position, depth: u32, config: &TtConfig) {
    let mut ours = stats_divide(pos, depth, config);
    let mut expected = reference_divide(pos, depth);
    ours.sort_by_key(|(m, _)| m.to_string());
    expected.sort_by_key(|(m, ..)| m.to_string());
    assert_eq!(ours.len(), expected.len(), "{name} depth {depth}");
    for ((m, counts), (em, nodes, stats)) in ours.iter().zip(&expected) {
        let what = format!("{name} depth {depth} {:?} {m}", config.mode);
        assert_eq!(m, em, "{what}");
        assert_eq!(counts.nodes, *nodes, "{what}");
        assert_eq!(counts.stats, *stats, "{what}");
        if config.mode != TtMode::Certify {
            assert_eq!(counts.fast_stats, counts.stats, "{what}");
        }
    }
}

#[test]
fn every_mode_counts_the_reference_statistics_per_root_move() {
    for name in POSITIONS {
        let pos = position(name);
        for mode in [TtMode::Off, TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            // Small enough that entries are replaced and overwritten during the run.
            assert_exact(name, &pos, 4, &stats_config(mode, 256 << 10, 64));
        }
    }
}

#[test]
fn every_mode_counts_the_statistics_of_depths_0_to_2() {
    for name in POSITIONS {
        let pos = position(name);
        for mode in [TtMode::Off, TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            for depth in 1..=2 {
                assert_exact(name, &pos, depth, &stats_config(mode, 1 << 20, 64));
            }
            assert!(stats_divide(&pos, 0, &stats_config(mode, 1 << 20, 64)).is_empty());
        }
    }
}

/// With an 8-bit verifier the fast table accepts other positions' entries, statistics and
/// all: certify still counts the exact statistics and keeps the fast table's apart.
#[test]
fn certify_keeps_the_exact_statistics_when_the_fast_table_is_wrong() {
    let pos = position("kiwipete");
    let config = stats_config(TtMode::Certify, 64 << 10, 8);
    assert_exact("kiwipete", &pos, 4, &config);
    let ours: Counts = stats_divide(&pos, 4, &config)
        .into_iter()
        .map(|(_, c)| c)
        .sum();
    assert_ne!(
        (ours.fast_nodes, ours.fast_stats),
        (ours.nodes, ours.stats),
        "an 8-bit verifier gives false hits"
    );
}

#[test]
fn a_table_with_statistics_costs_its_slots_in_the_budget() {
    let plain = TtConfig::new(TtMode::Fast, 1 << 20);
    let with_stats = stats_config(TtMode::Fast, 1 << 20, 64);
    // 16 bytes per fast entry, 80 more for its statistics.
    assert_eq!(plain.slots().unwrap(), 65_536);
    assert_eq!(with_stats.slots().unwrap(), (1 << 20) / 96 / 4 * 4);
    let certify = stats_config(TtMode::Certify, 1 << 20, 64);
    assert_eq!(certify.bucket_bytes(), Some(4 * (80 + 160)));
}
