//! The specialised generator's move-type statistics against the reference classification
//! (`chess::perft::perft_stats`, each last move played and its checkers and replies counted):
//! on random positions of every combination of the compile-time parameters, standard and
//! Chess960, with every slider lookup this CPU has; on the reference positions; on positions
//! made for what bulk classification gets wrong (stalemates, en passant and castles that
//! check, promotions that double-check, double-check mates); and on the wiki's start-position
//! figures.

use crate::common;

use std::collections::BTreeMap;
use vkperft::chess::fen::START_FEN;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::perft;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::specialized::{self, NodeParameters, SliderLookup};
use vkperft::chess::{
    Color, Convention, MoveStat, MoveStats, Piece, Position, Role, Setup, Square,
};
use vkperft::reference::move_stats::published_stats_for;

const SEED: u64 = 0x57a7_5eed;
const SAMPLE: usize = 3000;
/// Positions checked per combination of parameters.
const PER_COMBINATION: usize = 30;
/// Of those, the ones also checked one ply deeper.
const DEEPER_PER_COMBINATION: usize = 5;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The reference's totals, and the specialised generator's with every lookup equal to them.
fn assert_stats(pos: &Position, depth: u32) -> (u128, MoveStats) {
    let expected = perft::perft_stats(pos, depth);
    for lookup in SliderLookup::available() {
        assert_eq!(
            specialized::perft_stats_with(pos, depth, lookup),
            expected,
            "{}: perft {depth} statistics with {lookup:?}",
            pos.to_fen()
        );
    }
    expected
}

/// Depth 1 and 2 in total, and with `deeper` depth 2 below each root move, so that a
/// mismatch names the move.
fn check_position(pos: &Position, deeper: bool) {
    assert_stats(pos, 1);
    assert_stats(pos, 2);
    if deeper {
        for &m in legal_moves(pos).iter() {
            let child = pos.play(m);
            let expected = perft::perft_stats(&child, 2);
            for lookup in SliderLookup::available() {
                assert_eq!(
                    specialized::perft_stats_with(&child, 2, lookup),
                    expected,
                    "{}: perft 3 statistics below {m} with {lookup:?}",
                    pos.to_fen()
                );
            }
        }
    }
}

/// Checks up to [`PER_COMBINATION`] positions of each combination, after asserting that the
/// sample holds that many of each in `required`.
fn check_sample(positions: Vec<Position>, required: &[NodeParameters]) {
    let mut by_parameters: BTreeMap<NodeParameters, Vec<Position>> = BTreeMap::new();
    for pos in positions {
        by_parameters
            .entry(NodeParameters::of(&pos))
            .or_default()
            .push(pos);
    }
    for &parameters in required {
        let found = by_parameters.get(&parameters).map_or(0, Vec::len);
        assert!(
            found >= PER_COMBINATION,
            "{found} positions with {parameters:?} in the sample, {PER_COMBINATION} wanted"
        );
    }
    for positions in by_parameters.values() {
        for (i, pos) in positions.iter().take(PER_COMBINATION).enumerate() {
            check_position(pos, i < DEEPER_PER_COMBINATION);
        }
    }
}

fn every_combination() -> Vec<NodeParameters> {
    let mut all = Vec::new();
    for white_to_move in [true, false] {
        for en_passant in [true, false] {
            for castling in [true, false] {
                all.push(NodeParameters {
                    white_to_move,
                    en_passant,
                    castling,
                });
            }
        }
    }
    all
}

#[test]
fn standard_positions_of_every_parameter_combination() {
    check_sample(
        common::random_positions(SEED, SAMPLE, 60),
        &every_combination(),
    );
}

#[test]
fn chess960_positions_of_every_castling_combination() {
    let without_en_passant: Vec<NodeParameters> = every_combination()
        .into_iter()
        .filter(|parameters| !parameters.en_passant)
        .collect();
    check_sample(
        common::random_chess960_positions(SEED, SAMPLE, 40),
        &without_en_passant,
    );
}

/// `count` legal positions of two kings and up to `max_pieces` other pieces on random
/// squares (pawns off the back ranks), either side to move, no castling or en passant.
fn sparse_positions(seed: u64, count: usize, max_pieces: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut setup = Setup::empty();
        let pieces = 2 + rng.below(max_pieces + 1);
        for i in 0..pieces {
            let sq = Square::new(rng.below(64) as u8);
            let color = if i == 0 || (i > 1 && rng.below(2) == 0) {
                Color::White
            } else {
                Color::Black
            };
            let role = if i < 2 {
                Role::King
            } else {
                Role::ALL[rng.below(5) as usize]
            };
            if role != Role::Pawn || !matches!(sq.rank(), 0 | 7) {
                setup.board[sq.index()] = Some(Piece::new(color, role));
            }
        }
        if rng.below(2) == 0 {
            setup.turn = Color::Black;
        }
        if let Ok(pos) = Position::from_setup(&setup) {
            if !legal_moves(&pos).is_empty() {
                positions.push(pos);
            }
        }
    }
    positions
}

/// Few pieces, kings easily boxed: positions with mating and stalemating moves at the last
/// ply, by every kind of move (pinned pieces, blocked pawns, promotions).
#[test]
fn sparse_positions_with_mates_and_stalemates() {
    let mut with_stalemates = 0;
    let mut with_mates = 0;
    for pos in sparse_positions(SEED, 3000, 6) {
        let (_, stats) = assert_stats(&pos, 2);
        with_stalemates += usize::from(stats.get(MoveStat::Stalemates) > 0);
        with_mates += usize::from(stats.get(MoveStat::TotalMates) > 0);
    }
    assert!(with_stalemates >= 100, "{with_stalemates} with stalemates");
    assert!(with_mates >= 100, "{with_mates} with mates");
}

#[test]
fn reference_positions() {
    for (name, fen) in vkperft::reference::positions() {
        let pos = position(fen);
        let depth = if name == "kiwipete" { 3 } else { 4 };
        assert_stats(&pos, depth);
    }
}

#[test]
fn chess960_start_positions() {
    for start in vkperft::reference::chess960::start_positions()
        .iter()
        .step_by(97)
    {
        assert_stats(&position(start.shredder_fen), 3);
    }
}

/// Each position's depth-1 statistics, checked against the reference and against the figures
/// it was made for: `(fen, [captures, en passant, castles, promotions, checks, discovered,
/// double, mates, stalemates])`, checks by their checkers with the mates among them (see
/// [`by_checkers`]).
const CRAFTED: &[(&str, [u128; 9])] = &[
    // Stalemates: the king is boxed in and stays so after Qf7 and the three king moves.
    ("7k/8/6Q1/8/8/8/8/K7 w - - 0 1", [0, 0, 0, 0, 7, 0, 0, 0, 4]),
    // Rh8 pins the knight, the king's squares are covered.
    (
        "kn6/8/1K6/8/8/8/8/7R w - - 0 1",
        [0, 0, 0, 0, 1, 0, 0, 0, 1],
    ),
    // The pawn is blocked and h6 covers g7: Qf7, Qg1, Qg2 and Qc4 take g8, Qf8 mates.
    (
        "7k/7p/7P/8/8/8/8/K4Q2 w - - 0 1",
        [0, 0, 0, 0, 2, 0, 0, 1, 4],
    ),
    // En passant uncovers the rook along the rank.
    (
        "8/8/8/R1pP3k/8/8/8/4K3 w - c6 0 1",
        [2, 1, 0, 0, 1, 1, 0, 0, 0],
    ),
    // En passant takes the pawn that shielded the king on the diagonal.
    (
        "8/4k3/8/2pP4/8/B7/8/4K3 w - c6 0 1",
        [2, 1, 0, 0, 3, 1, 0, 0, 0],
    ),
    // En passant (and d6) moves the pawn off the bishop's diagonal.
    (
        "8/5k2/8/2pP4/8/1B6/8/4K3 w - c6 0 1",
        [1, 1, 0, 0, 2, 2, 0, 0, 0],
    ),
    // En passant checks with the capturing pawn.
    (
        "8/3k4/8/2pP4/8/8/8/4K3 w - c6 0 1",
        [1, 1, 0, 0, 1, 0, 0, 0, 0],
    ),
    // Castles whose rook checks: king side, queen side, Chess960 with the king on b1.
    (
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        [0, 0, 1, 0, 3, 0, 0, 0, 0],
    ),
    (
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        [0, 0, 1, 0, 3, 0, 0, 0, 0],
    ),
    (
        "5k2/8/8/8/8/8/8/1KR5 w C - 0 1",
        [0, 0, 1, 0, 3, 0, 0, 0, 0],
    ),
    // Castles that stalemate: O-O-O, the only move that does; O-O, and three queen moves.
    (
        "8/8/8/1Q6/8/2k5/8/R3K2R w KQ - 0 1",
        [0, 0, 2, 0, 12, 0, 0, 0, 1],
    ),
    (
        "8/8/8/8/Q7/6k1/6P1/R3K2R w KQ - 0 1",
        [0, 0, 2, 0, 7, 0, 0, 0, 4],
    ),
    // dxc8 opens the rook's file: =Q and =R check twice, =B and =N by discovery.
    (
        "2rk4/3P4/8/8/8/8/8/3RK3 w - - 0 1",
        [4, 0, 0, 4, 4, 2, 2, 0, 0],
    ),
    // b8=Q and b8=R check down the file the pawn shielded.
    (
        "8/1P6/8/8/8/8/1k6/4K3 w - - 0 1",
        [0, 0, 0, 4, 2, 0, 0, 0, 0],
    ),
    // Nf6 mates with a double check, Nd6 and Nc7 by discovery; Nxg7+ is answered by Kxg7.
    (
        "R3N1k1/5ppp/8/8/8/8/8/6K1 w - - 0 1",
        [1, 0, 0, 0, 4, 3, 1, 3, 0],
    ),
];

/// The mates of the last crafted position, by how they check.
#[test]
fn mates_are_split_by_how_they_check() {
    let (_, stats) = assert_stats(&position("R3N1k1/5ppp/8/8/8/8/8/6K1 w - - 0 1"), 1);
    assert_eq!(stats.get(MoveStat::DirectDiscoveredMates), 1);
    assert_eq!(stats.get(MoveStat::SingleDiscoveredMates), 2);
    assert_eq!(stats.get(MoveStat::SingleDiscoveredChecks), 1);
    assert_eq!(stats.get(MoveStat::TotalChecks), 1);
}

/// The statistics as [`CRAFTED`] gives them: discovered checks (one checker, not the moved
/// piece) and double checks (two checkers) with the mates among them.
fn by_checkers(stats: &MoveStats) -> [u128; 9] {
    let get = |stat| stats.get(stat);
    [
        get(MoveStat::Captures),
        get(MoveStat::EnPassants),
        get(MoveStat::Castles),
        get(MoveStat::Promotions),
        get(MoveStat::Checks),
        get(MoveStat::SingleDiscoveredChecks) + get(MoveStat::SingleDiscoveredMates),
        get(MoveStat::DoubleChecks)
            + get(MoveStat::DirectDiscoveredMates)
            + get(MoveStat::DoubleDiscoveredMates),
        get(MoveStat::TotalMates),
        get(MoveStat::Stalemates),
    ]
}

#[test]
fn crafted_positions() {
    for &(fen, expected) in CRAFTED {
        let (_, stats) = assert_stats(&position(fen), 1);
        assert_eq!(by_checkers(&stats), expected, "{fen}");
        assert_stats(&position(fen), 2);
    }
}

/// The start-position tables of both sources, each in its convention.
#[test]
fn start_position_figures_of_both_sources() {
    let start = common::position("startpos");
    for depth in [5, 6] {
        let (nodes, stats) = specialized::perft_stats(&start, depth);
        for source in Convention::ALL {
            let published = published_stats_for(source, START_FEN, depth).expect("published");
            assert_eq!(nodes, published.nodes);
            for &(stat, value) in &published.stats {
                assert_eq!(stats.get(stat), value, "{stat:?} at depth {depth}");
            }
        }
    }
}

#[test]
fn depths_0_and_past_a_u64_subtree() {
    let pos = position("k7/8/8/8/8/8/8/7K w - - 0 1");
    assert_eq!(specialized::perft_stats(&pos, 0), (1, MoveStats::default()));
    // Two kings: nothing to take, no check, no mate.
    assert_eq!(
        specialized::perft_stats(&pos, 9),
        (specialized::perft(&pos, 9), MoveStats::default())
    );
}
