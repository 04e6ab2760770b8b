//! Statistics without making at the penultimate ply (`chess::specialized::stats_neutral_moves`):
//! every move called so leaves exactly the last-ply statistics of the board with the turn
//! passed (the reference classification of each reply: captures, en passant, castles,
//! promotions, checks and mates by kind, stalemates); on random positions of every kind (a
//! property test that shrinks a failure to a small position), on walks from the standard and
//! Chess960 start positions, and on the opening, where the rule applies most.

use crate::common;
use crate::strategies;

use proptest::prelude::*;
use vkperft::chess::specialized::{neutral_moves, stats_neutral_moves, SliderLookup};
use vkperft::chess::{perft, specialized, Position};

const SEED: u64 = 0x5747_5f6e_756c_6c73;

/// What a check of `pos` found: moves counted by the passed board, and neutral moves (the same
/// replies) whose replies' statistics differ from the passed board's, which must be made.
#[derive(Default)]
struct Found {
    counted: usize,
    neutral_but_changed: usize,
}

/// Asserts that each move called statistics-neutral in `pos` is neutral and leaves the
/// reference's last-ply statistics of the passed board (first, so that a failure names the
/// move), and that the specialised generator's statistics perft 2 equals the reference's.
fn check_stats_neutral(pos: &Position) -> Found {
    let fen = pos.to_fen();
    let mut found = Found::default();
    if let Some(counted) = stats_neutral_moves(pos) {
        assert!(
            pos.checkers().is_empty(),
            "{fen}: counted moves while in check"
        );
        let neutral = neutral_moves(pos).expect("not in check");
        let null_stats = perft::perft_stats(&common::passed(pos), 1);
        for &(from, to) in &counted {
            let m = common::legal_move(pos, from, to);
            assert!(neutral.contains(&(from, to)), "{fen}: {m} is not neutral");
            assert_eq!(
                perft::perft_stats(&pos.play(m), 1),
                null_stats,
                "{fen}: {m} is counted by the passed board but changes the replies' statistics"
            );
        }
        found.counted = counted.len();
        for &(from, to) in &neutral {
            let child = pos.play(common::legal_move(pos, from, to));
            if perft::perft_stats(&child, 1) != null_stats {
                found.neutral_but_changed += 1;
            }
        }
    } else if let Some(neutral) = neutral_moves(pos) {
        let null_stats = perft::perft_stats(&common::passed(pos), 1);
        found.neutral_but_changed = neutral
            .iter()
            .filter(|&&(from, to)| {
                perft::perft_stats(&pos.play(common::legal_move(pos, from, to)), 1) != null_stats
            })
            .count();
    }
    let expected = perft::perft_stats(pos, 2);
    for lookup in SliderLookup::available() {
        assert_eq!(
            specialized::perft_stats_with(pos, 2, lookup),
            expected,
            "{fen}: statistics perft 2 with {lookup:?}"
        );
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Positions of every kind: pieces anywhere, castling rights, en passant, checks.
    #[test]
    fn counted_moves_leave_the_passed_boards_statistics(pos in strategies::positions_with_moves()) {
        check_stats_neutral(&pos);
    }
}

#[test]
fn counted_moves_are_sound_on_walks_of_both_variants() {
    let positions = common::random_positions(SEED, 4000, 40)
        .into_iter()
        .chain(common::random_chess960_positions(SEED, 1500, 30));
    let (mut counted, mut neutral_but_changed) = (0, 0);
    for pos in positions {
        let found = check_stats_neutral(&pos);
        counted += found.counted;
        neutral_but_changed += found.neutral_but_changed;
    }
    // Both kinds are common enough for the test to check something: moves counted, and
    // neutral moves whose statistics the rules rightly keep apart.
    assert!(counted >= 1000, "{counted} moves counted");
    assert!(
        neutral_but_changed >= 100,
        "{neutral_but_changed} neutral moves changed"
    );
}

/// The opening, where the rule applies most: positions a few plies from the start.
#[test]
fn opening_positions() {
    let positions = common::random_positions(SEED ^ 1, 300, 6);
    let counted: usize = positions
        .iter()
        .map(|pos| check_stats_neutral(pos).counted)
        .sum();
    assert!(counted >= 500, "{counted} moves counted");
}

/// Only the e-file is a live line of the white king (the black queen's reach, and the black
/// back rank while Black may castle), and no black reply checks: the seventeen neutral moves
/// are counted by the passed board.
#[test]
fn the_start_position_counts_its_neutral_moves() {
    let start = Position::startpos();
    assert_eq!(check_stats_neutral(&start).counted, 17);
    assert_eq!(stats_neutral_moves(&start), neutral_moves(&start));
}
