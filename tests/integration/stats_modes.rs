//! Move-type statistics through the CPU search and the Vulkan backend, without a table and in
//! every table mode, against the reference classification (`chess::perft::perft_stats`) per
//! root move.

use crate::common::{position, shared_vulkan_backend, silent_control};
use vkperft::backend::{Backend, RunRequest};
use vkperft::chess::perft::perft_stats;
use vkperft::chess::{Move, MoveStat, MoveStats, Position, Zobrist};
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
    assert_divide_exact(
        name,
        stats_divide(pos, depth, config),
        pos,
        depth,
        config.mode,
    );
}

/// `ours`, a divide with statistics in table mode `mode`, against the reference's.
fn assert_divide_exact(
    name: &str,
    mut ours: Vec<(Move, Counts)>,
    pos: &Position,
    depth: u32,
    mode: TtMode,
) {
    let mut expected = reference_divide(pos, depth);
    ours.sort_by_key(|(m, _)| m.to_string());
    expected.sort_by_key(|(m, ..)| m.to_string());
    assert_eq!(ours.len(), expected.len(), "{name} depth {depth}");
    for ((m, counts), (em, nodes, stats)) in ours.iter().zip(&expected) {
        let what = format!("{name} depth {depth} {mode:?} {m}");
        assert_eq!(m, em, "{what}");
        assert_eq!(counts.nodes, *nodes, "{what}");
        assert_eq!(counts.stats, *stats, "{what}");
        if mode != TtMode::Certify {
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

/// The divide with statistics of the Vulkan backend, through a table of `config`.
fn vulkan_stats_divide(pos: &Position, depth: u32, config: &TtConfig) -> Vec<(Move, Counts)> {
    let mut gpu = shared_vulkan_backend();
    gpu.prepare(config, &Zobrist::default())
        .expect("the test table fits");
    let request = RunRequest {
        position: *pos,
        depth,
        threads: 2,
        move_stats: true,
    };
    gpu.run(&request, &silent_control())
        .unwrap_or_else(|err| panic!("{}: {err:?}", pos.to_fen()))
        .divide
}

#[test]
fn vulkan_counts_the_reference_statistics_per_root_move_in_every_mode() {
    for name in POSITIONS {
        let pos = position(name);
        for mode in [TtMode::Off, TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            for depth in 1..=4 {
                // Small enough that entries are replaced during the run.
                let config = stats_config(mode, 1 << 20, 64);
                let divide = vulkan_stats_divide(&pos, depth, &config);
                assert_divide_exact(name, divide, &pos, depth, mode);
            }
        }
    }
}

/// Runs with and without statistics share a table whose entries keep them: each counts
/// exactly, and only a statistics run reports them.
#[test]
fn vulkan_runs_with_and_without_statistics_share_a_table_exactly() {
    let pos = position("kiwipete");
    let config = stats_config(TtMode::Verified, 1 << 20, 64);
    let expected = vkperft::chess::perft::perft(&pos, 4);
    let mut gpu = shared_vulkan_backend();
    gpu.prepare(&config, &Zobrist::default())
        .expect("the test table fits");
    for move_stats in [true, false, true, false] {
        let request = RunRequest {
            position: pos,
            depth: 4,
            threads: 2,
            move_stats,
        };
        let outcome = gpu.run(&request, &silent_control()).expect("a run");
        let total: Counts = outcome.divide.iter().map(|(_, c)| *c).sum();
        assert_eq!(total.nodes, expected, "move_stats {move_stats}");
        let stats = if move_stats {
            perft_stats(&pos, 4).1
        } else {
            MoveStats::default()
        };
        assert_eq!(total.stats, stats, "move_stats {move_stats}");
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
    // 16 bytes per fast entry, 112 more for its statistics.
    assert_eq!(plain.slots().unwrap(), 65_536);
    assert_eq!(with_stats.slots().unwrap(), (1 << 20) / 128 / 4 * 4);
    let certify = stats_config(TtMode::Certify, 1 << 20, 64);
    assert_eq!(certify.bucket_bytes(), Some(4 * (80 + 224)));
}

/// The reference classification of one last move, on crafted positions.
mod classification {
    use vkperft::chess::{uci, MoveStat, MoveStats, Position};

    fn stats_of(fen: &str, uci: &str) -> MoveStats {
        let pos = Position::from_fen(fen).expect("a legal FEN");
        let m = uci::parse_move(&pos, uci).expect("a legal move");
        MoveStats::of_move(&pos, m)
    }

    /// The columns of `stats` that are not zero.
    fn counted(stats: &MoveStats) -> Vec<MoveStat> {
        MoveStat::ALL
            .into_iter()
            .filter(|&stat| stats.get(stat) != 0)
            .collect()
    }

    use MoveStat::*;

    #[test]
    fn a_capture_that_mates() {
        // Scholar's mate: Qxf7#.
        let s = stats_of(
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        );
        assert_eq!(
            counted(&s),
            [Captures, DirectMates, TotalMates, Checks, Checkmates]
        );
    }

    #[test]
    fn a_castle_that_checks_with_its_rook_is_direct() {
        let s = stats_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!(counted(&s), [Castles, DirectChecks, TotalChecks, Checks]);
    }

    #[test]
    fn en_passant_discovers_a_check_through_the_captured_pawn() {
        // The c5 pawn shielded the king from the bishop on a3.
        let s = stats_of("8/4k3/8/2pP4/8/B7/8/4K3 w - c6 0 1", "d5c6");
        assert_eq!(
            counted(&s),
            [
                Captures,
                EnPassants,
                SingleDiscoveredChecks,
                TotalChecks,
                EnPassant,
                Checks,
                DiscoveredChecks
            ]
        );
        let s = stats_of("6k1/8/8/2pP4/8/B7/8/4K3 w - c6 0 1", "d5c6");
        assert_eq!(counted(&s), [Captures, EnPassants, EnPassant]);
    }

    #[test]
    fn en_passant_can_discover_two_checks() {
        // The captured pawn shielded the king from the bishop, the capturing one from the rook.
        let s = stats_of("8/8/3k4/2pP4/8/B7/8/3RK3 w - c6 0 1", "d5c6");
        assert_eq!(
            counted(&s),
            [
                Captures,
                EnPassants,
                DoubleDiscoveredChecks,
                TotalChecks,
                EnPassant,
                Checks,
                DoubleChecks
            ]
        );
    }

    #[test]
    fn a_promotion_checks_with_the_new_piece_and_two_checkers_are_direct_and_discovered() {
        let s = stats_of("8/3kP3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q");
        assert_eq!(s.get(DirectChecks), 1);
        assert_eq!(s.get(Promotions), 1);
        let s = stats_of("8/3kP3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n");
        assert_eq!(counted(&s), [Promotions]);
        // Nf6 uncovers the rook's file and checks itself.
        let s = stats_of("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4f6");
        assert_eq!(
            counted(&s),
            [DirectDiscoveredChecks, TotalChecks, Checks, DoubleChecks]
        );
        let s = stats_of("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5");
        assert_eq!(
            counted(&s),
            [
                SingleDiscoveredChecks,
                TotalChecks,
                Checks,
                DiscoveredChecks
            ]
        );
    }

    #[test]
    fn a_stalemate() {
        let s = stats_of("7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "g6f7");
        assert_eq!(counted(&s), [Stalemates]);
    }

    #[test]
    fn values_are_in_the_order_of_the_counted_columns() {
        let s = MoveStats::from_values(std::array::from_fn(|i| i as u128 + 1));
        assert_eq!(s.values()[4], s.get(DirectChecks));
        assert_eq!(MoveStat::TALLIED[4].key(), "direct_checks");
        assert_eq!(s.times(2).get(Stalemates), 26);
        assert_eq!((s + s).get(Captures), 2);
    }
}

/// Positions whose last ply stalemates or mates, among them moves that take away the opponent's
/// one unblockable move (a pawn's push blocked, a knight taken): the statistics leaf settles
/// quiet moves by witnesses and checks on the occupancy, and makes only the moves these leave
/// open.
#[test]
fn vulkan_settles_the_last_plys_mates_and_stalemates_as_the_reference_does() {
    for (index, fen) in [
        // Ra4 blocks the pawn's one push: stalemate.
        "7k/5K2/6P1/p7/1R6/8/8/8 w - - 0 1",
        // Rxb1 takes the knight, the one piece that could move: stalemate.
        "7k/5K2/6P1/8/1R6/8/8/1n6 w - - 0 1",
        // Two pawns, each pushable: no move of ours stalemates, a few mate.
        "7k/5K2/6P1/p7/4p3/1R6/8/8 w - - 0 1",
        "k7/P7/1K6/8/8/8/8/8 w - - 0 1",
        "1k6/1P6/1K6/8/4b3/8/8/8 w - - 0 1",
        "8/8/8/8/8/4k3/4p3/4K3 w - - 0 1",
        "2k5/8/1PK5/8/8/8/8/8 w - - 0 1",
        "4k3/4P3/3K4/8/8/8/8/3R4 w - - 0 1",
        "5bk1/5p2/5K2/8/8/8/8/R7 w - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        let pos = Position::from_fen(fen).expect("a legal position");
        if index < 2 {
            let stalemates = perft_stats(&pos, 1).1.get(MoveStat::Stalemates);
            assert_eq!(stalemates, 1, "{fen}: the rook's move stalemates");
        }
        for mode in [TtMode::Off, TtMode::Certify] {
            for depth in 1..=4 {
                let config = stats_config(mode, 1 << 20, 64);
                let divide = vulkan_stats_divide(&pos, depth, &config);
                assert_divide_exact(fen, divide, &pos, depth, mode);
            }
        }
    }
}
