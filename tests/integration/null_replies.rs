//! Counting without making at the penultimate ply (`chess::specialized::neutral_moves`): every
//! move called neutral leaves the opponent exactly the legal replies of the board with the turn
//! passed, move for move; on random positions of every kind (a property test that shrinks a
//! failure to a small position), on walks from the standard and Chess960 start positions, and
//! on positions built so that one rule of the predicate decides a move that matters.

use crate::common;
use crate::strategies;

use proptest::prelude::*;
use std::collections::BTreeSet;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::specialized::neutral_moves;
use vkperft::chess::{perft, specialized, Move, Position, Square};

const SEED: u64 = 0x6e75_6c6c_6d6f_7665;

/// The legal moves of `pos` as text, to compare two lists move for move.
fn replies(pos: &Position) -> BTreeSet<String> {
    legal_moves(pos).iter().map(Move::to_string).collect()
}

/// Asserts that each neutral move of `pos` leaves the replies of the passed board (first, so
/// that a failure names the move), and that the specialised generator's perft 2 equals the
/// reference's. Returns how many were neutral.
fn check_neutral(pos: &Position) -> usize {
    let fen = pos.to_fen();
    let Some(neutral) = neutral_moves(pos) else {
        assert!(pos.checkers().any(), "{fen}: no neutral list, not in check");
        assert_eq!(
            specialized::perft(pos, 2),
            perft::perft(pos, 2),
            "{fen}: perft 2"
        );
        return 0;
    };
    assert!(
        pos.checkers().is_empty(),
        "{fen}: neutral moves while in check"
    );
    let null_replies = replies(&common::passed(pos));
    let distinct: BTreeSet<(Square, Square)> = neutral.iter().copied().collect();
    assert_eq!(distinct.len(), neutral.len(), "{fen}: a neutral move twice");
    for &(from, to) in &neutral {
        let m = common::legal_move(pos, from, to);
        assert_eq!(
            replies(&pos.play(m)),
            null_replies,
            "{fen}: {m} is called neutral but changes the replies"
        );
    }
    assert_eq!(
        specialized::perft(pos, 2),
        perft::perft(pos, 2),
        "{fen}: perft 2"
    );
    neutral.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Positions of every kind: pieces anywhere, castling rights, en passant, checks.
    #[test]
    fn neutral_moves_leave_the_replies_of_the_passed_board(
        pos in strategies::positions_with_moves()
    ) {
        check_neutral(&pos);
    }
}

#[test]
fn neutral_moves_are_sound_on_walks_of_both_variants() {
    let positions = common::random_positions(SEED, 6000, 60)
        .into_iter()
        .chain(common::random_chess960_positions(SEED, 3000, 40));
    let mut neutral = 0;
    let mut children = 0;
    for pos in positions {
        neutral += check_neutral(&pos);
        children += legal_moves(&pos).len();
    }
    // The rule applies to a good share of moves, so the test checks something.
    assert!(
        neutral * 5 > children,
        "{neutral} neutral moves of {children}"
    );
}

#[test]
fn the_start_position_counts_seventeen_moves_without_making_them() {
    let start = Position::startpos();
    assert_eq!(check_neutral(&start), 17);
    let neutral = neutral_moves(&start).expect("not in check");
    let text: BTreeSet<String> = neutral.iter().map(|(f, t)| format!("{f}{t}")).collect();
    // The e-pawn stands on the black king's file behind the e7 pawn (rule 5), a2-a4 lands on
    // the king's diagonal behind d7.
    for made in ["e2e3", "e2e4", "a2a4"] {
        assert!(!text.contains(made), "{made} is neutral");
    }
    for counted in ["g1f3", "b1c3", "d2d4", "h2h4"] {
        assert!(text.contains(counted), "{counted} is not neutral");
    }
}

/// Positions built so that the move named changes the opponent's replies, each by what one
/// rule of the predicate guards against: the move must be made, not counted.
const TRAPS: &[(&str, &str, &str)] = &[
    (
        "4k3/8/8/8/r7/8/1N6/4K3 w - - 0 1",
        "b2c4",
        "blocks a rook's ray",
    ),
    (
        "4k3/8/8/8/r2N4/8/8/4K3 w - - 0 1",
        "d4b3",
        "opens a rook's ray",
    ),
    (
        "4k3/8/8/4p3/8/8/3N4/4K3 w - - 0 1",
        "d2e4",
        "blocks a pawn's push",
    ),
    (
        "4k3/8/8/4p3/8/1N6/8/4K3 w - - 0 1",
        "b3d4",
        "offers a pawn a capture",
    ),
    (
        "r3k3/8/N7/8/8/8/8/4K3 w q - 0 1",
        "a6b8",
        "blocks a castle's path",
    ),
    (
        "1r1k4/8/8/8/8/8/8/R3K3 w b - 0 1",
        "a1a8",
        "stands behind a Chess960 castling rook",
    ),
    (
        "4k3/8/8/2N5/8/8/8/4K3 w - - 0 1",
        "c5b7",
        "a knight takes a square from the king",
    ),
    (
        "4k3/8/8/8/8/8/3N4/3RK3 w - - 0 1",
        "d2b3",
        "opens a rook's file next to the king",
    ),
    (
        "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
        "d5d6",
        "a pawn takes squares from the king",
    ),
    (
        "4k3/8/8/8/8/8/4N3/4RK2 w - - 0 1",
        "e2c3",
        "uncovers a check",
    ),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "gives check"),
    ("4k3/8/4n3/8/8/8/8/R6K w - - 0 1", "a1e1", "pins a knight"),
    ("4k3/8/4n3/8/8/8/8/4R2K w - - 0 1", "e1a1", "releases a pin"),
    ("4k3/8/4n3/8/8/2N5/8/4R2K w - - 0 1", "c3e4", "blocks a pin"),
    (
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        "e2e4",
        "allows an en passant capture",
    ),
    (
        "k7/8/8/K7/8/8/8/8 b - - 0 1",
        "a8b7",
        "the king takes squares from ours",
    ),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "promotes"),
];

#[test]
fn moves_that_change_the_replies_are_made() {
    for &(fen, uci, why) in TRAPS {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = legal_moves(&pos)
            .iter()
            .copied()
            .find(|m| m.to_string().starts_with(uci))
            .unwrap_or_else(|| panic!("{fen}: {uci} is not legal"));
        assert_ne!(
            replies(&pos.play(m)),
            replies(&common::passed(&pos)),
            "{fen}: {uci} ({why}) leaves the replies as they are: not a trap"
        );
        let neutral = neutral_moves(&pos).expect("not in check");
        assert!(
            !neutral.contains(&(m.from(), m.to())),
            "{fen}: {uci} ({why}) is called neutral"
        );
        check_neutral(&pos);
    }
}

#[test]
fn a_side_in_check_makes_every_move() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1").expect("legal");
    assert_eq!(neutral_moves(&pos), None);
    assert_eq!(specialized::perft(&pos, 2), perft::perft(&pos, 2));
}
