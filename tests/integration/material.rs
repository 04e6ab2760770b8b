//! Material validation: every piece beyond the initial set must come from a promotion of one of
//! the side's 8 pawns, which also keeps every position's legal moves within a move list.

use vkperft::chess::movegen::legal_moves;
use vkperft::chess::moves::MAX_MOVES;
use vkperft::chess::{Color, ParseError, Position, PositionError};

fn material_error(fen: &str) -> Option<(Color, u32, u32)> {
    match Position::from_fen(fen) {
        Ok(_) => None,
        Err(ParseError::Position(PositionError::ImpossibleMaterial {
            color,
            pawns,
            promoted,
        })) => Some((color, pawns, promoted)),
        Err(err) => panic!("{fen}: {err}"),
    }
}

#[test]
fn promotions_account_for_every_extra_piece() {
    let cases = [
        // Nine queens and no pawn; a tenth queen is one promotion too many.
        ("qqqqqqqq/q7/8/8/8/8/8/k6K w - - 0 1", None),
        (
            "qqqqqqqq/qq6/8/8/8/8/8/k6K w - - 0 1",
            Some((Color::Black, 0, 9)),
        ),
        // All 8 pawns and one extra queen.
        (
            "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNQ w - - 0 1",
            Some((Color::White, 8, 1)),
        ),
        // Two bishops on dark squares (c1, e1) need a promotion, one on each color does not.
        (
            "4k3/8/8/8/8/8/PPPPPPPP/2B1BK2 w - - 0 1",
            Some((Color::White, 8, 1)),
        ),
        ("4k3/8/8/8/8/8/PPPPPPPP/2B2BK1 w - - 0 1", None),
        ("4k3/8/8/8/8/8/PPPPPPP1/2B1BK2 w - - 0 1", None),
        // Third rooks and knights, for either side.
        (
            "rrr1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
            Some((Color::Black, 8, 1)),
        ),
        ("rrr1k3/ppppppp1/8/8/8/8/8/4K3 w - - 0 1", None),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1",
            Some((Color::White, 8, 1)),
        ),
        // Nine pawns.
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            Some((Color::White, 9, 0)),
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(material_error(fen), expected, "{fen}");
    }
}

#[test]
fn the_error_names_side_and_counts() {
    let err = Position::from_fen("qqqqqqqq/qq6/8/8/8/8/8/k6K w - - 0 1").expect_err("ten queens");
    assert_eq!(
        err.to_string(),
        "illegal position: black has 0 pawns and 9 pieces beyond the initial set, more than its \
         8 pawns account for"
    );
    // Singular nouns for one.
    let err = Position::from_fen("qq5k/pppppppp/8/8/8/8/8/7K w - - 0 1").expect_err("a queen");
    assert!(
        err.to_string()
            .contains("black has 8 pawns and 1 piece beyond"),
        "{err}"
    );
    let err = Position::from_fen("qqqqqqqq/qp6/8/8/8/8/8/k6K w - - 0 1").expect_err("queens");
    assert!(
        err.to_string()
            .contains("black has 1 pawn and 8 pieces beyond"),
        "{err}"
    );
}

/// A board of queens with more legal moves than a move list holds is rejected rather than
/// overflowing the list; the largest material that promotions allow stays well within it.
#[test]
fn move_lists_hold_every_valid_position() {
    assert_eq!(
        material_error("kBQQQQQn/BR5Q/Q4Q2/Q5Q1/Q5Q1/Q4Q2/Q6Q/QQQQQQQK w - - 0 1"),
        Some((Color::White, 0, 23))
    );
    // The published record: 218 moves with nine queens.
    let record = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")
        .expect("the 218-move record is valid");
    assert_eq!(legal_moves(&record).len(), 218);
    const { assert!(218 <= MAX_MOVES) };
}
