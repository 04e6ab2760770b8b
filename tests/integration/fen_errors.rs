//! Every FEN syntax error and every position validation error is reported with its own
//! variant, through both `fen::parse` and `Position::from_fen`.

use vkperft::chess::fen::{self, START_FEN};
use vkperft::chess::{Color, FenError, ParseError, Position, PositionError, Square};

fn fen_error(text: &str) -> FenError {
    let err = fen::parse(text).expect_err(text);
    assert_eq!(
        Position::from_fen(text).expect_err(text),
        ParseError::Fen(err.clone()),
        "{text}"
    );
    err
}

fn position_error(text: &str) -> PositionError {
    fen::parse(text).unwrap_or_else(|e| panic!("{text} should parse: {e}"));
    match Position::from_fen(text) {
        Err(ParseError::Position(err)) => err,
        other => panic!("{text}: expected a position error, got {other:?}"),
    }
}

fn square(name: &str) -> Square {
    Square::parse(name).expect("valid square name")
}

#[test]
fn placement_errors() {
    assert_eq!(
        fen_error("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceLetter {
            rank: 7,
            letter: 'x'
        }
    );
    // 9 and 0 are not square counts.
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceLetter {
            rank: 6,
            letter: '9'
        }
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/8/08/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceLetter {
            rank: 3,
            letter: '0'
        }
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::ConsecutiveDigits { rank: 6 }
    );
    assert_eq!(
        fen_error("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 8,
            squares: 7
        }
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/4P4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 4,
            squares: 9
        }
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRN w KQkq - 0 1"),
        FenError::RankLength {
            rank: 1,
            squares: 9
        }
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(7)
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(9)
    );
}

#[test]
fn side_castling_and_ep_field_errors() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_eq!(
        fen_error(&format!("{board} x KQkq - 0 1")),
        FenError::BadSide("x".into())
    );
    assert_eq!(
        fen_error(&format!("{board} W KQkq - 0 1")),
        FenError::BadSide("W".into())
    );
    assert_eq!(
        fen_error(&format!("{board} w KQxq - 0 1")),
        FenError::BadCastlingLetter('x')
    );
    assert_eq!(
        fen_error(&format!("{board} w K-q - 0 1")),
        FenError::BadCastlingLetter('-')
    );
    assert_eq!(
        fen_error(&format!("{board} w KQkqK - 0 1")),
        FenError::RepeatedCastlingRight("KQkqK".into())
    );
    assert_eq!(
        fen_error(&format!("{board} w kk - 0 1")),
        FenError::RepeatedCastlingRight("kk".into())
    );
    for bad in ["e9", "i3", "e", "e3e", "33"] {
        assert_eq!(
            fen_error(&format!("{board} w KQkq {bad} 0 1")),
            FenError::BadEpSquare(bad.into())
        );
    }
    assert_eq!(
        fen_error(&format!("{board} w KQkq e3 0 1")),
        FenError::ImpossibleEpSquare {
            square: "e3".into(),
            turn: Color::White,
            expected_rank: 6
        }
    );
    assert_eq!(
        fen_error(&format!("{board} b KQkq e6 0 1")),
        FenError::ImpossibleEpSquare {
            square: "e6".into(),
            turn: Color::Black,
            expected_rank: 3
        }
    );
}

#[test]
fn counter_and_field_count_errors() {
    let four = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    assert_eq!(
        fen_error(&format!("{four} -1 1")),
        FenError::BadHalfmoveClock("-1".into())
    );
    assert_eq!(
        fen_error(&format!("{four} x 1")),
        FenError::BadHalfmoveClock("x".into())
    );
    assert_eq!(
        fen_error(&format!("{four} +0 1")),
        FenError::BadHalfmoveClock("+0".into())
    );
    assert_eq!(
        fen_error(&format!("{four} 0 +1")),
        FenError::BadFullmoveNumber("+1".into())
    );
    assert_eq!(
        fen_error(&format!("{four} 0 0")),
        FenError::BadFullmoveNumber("0".into())
    );
    assert_eq!(
        fen_error(&format!("{four} 0 -3")),
        FenError::BadFullmoveNumber("-3".into())
    );
    assert_eq!(
        fen_error(&format!("{four} 0 1 garbage")),
        FenError::TrailingGarbage("garbage".into())
    );
    assert_eq!(
        fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
        FenError::MissingFields(3)
    );
    assert_eq!(fen_error("8/8/8/8/8/8/8/8"), FenError::MissingFields(1));
    assert_eq!(fen_error(""), FenError::Empty);
    assert_eq!(fen_error("  \t "), FenError::Empty);
}

#[test]
fn move_counters_are_optional() {
    let four = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
        .expect("four fields suffice");
    assert_eq!((four.halfmove_clock(), four.fullmove_number()), (0, 1));
    assert!(four.same_perft_state(&Position::startpos()));
    assert_eq!(four.to_fen(), START_FEN);
    let five = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7")
        .expect("five fields suffice");
    assert_eq!((five.halfmove_clock(), five.fullmove_number()), (7, 1));
    let six = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 12 34")
        .expect("six fields");
    assert_eq!((six.halfmove_clock(), six.fullmove_number()), (12, 34));
    assert_eq!(
        six.to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 12 34"
    );
}

#[test]
fn king_and_pawn_errors() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        PositionError::MissingKing(Color::White)
    );
    assert_eq!(
        position_error("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::MissingKing(Color::Black)
    );
    assert_eq!(
        position_error("4k2k/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::TooManyKings(Color::Black)
    );
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"),
        PositionError::TooManyKings(Color::White)
    );
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
        PositionError::PawnOnBackRank(Square::A1)
    );
    assert_eq!(
        position_error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::PawnOnBackRank(Square::H8)
    );
    // Kings side by side are refused as such, whichever side is to move.
    for turn in ["w", "b"] {
        let err = position_error(&format!("8/8/8/8/8/8/3kK3/8 {turn} - - 0 1"));
        assert_eq!(
            err,
            PositionError::AdjacentKings {
                white: square("e2"),
                black: square("d2")
            }
        );
        assert_eq!(
            err.to_string(),
            "the kings stand on adjacent squares (e2 and d2)"
        );
    }
    assert_eq!(
        position_error("8/8/8/8/8/5k2/4K3/8 w - - 0 1"),
        PositionError::AdjacentKings {
            white: square("e2"),
            black: square("f3")
        }
    );
    // White to move with Black's king attacked by the rook on e1.
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        PositionError::OpponentInCheck(Color::Black)
    );
    assert_eq!(
        position_error("4k3/8/8/8/8/3n4/8/4K3 b - - 0 1"),
        PositionError::OpponentInCheck(Color::White)
    );
}

#[test]
fn castling_right_errors() {
    let missing = |fen: &str| match position_error(fen) {
        PositionError::CastlingWithoutPieces { right, missing } => (right, missing),
        other => panic!("{fen}: expected CastlingWithoutPieces, got {other:?}"),
    };
    // Chess960 (X-FEN): a king on g1 may castle with the a1 rook, but not from g2.
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/R5K1 w Q - 0 1").is_ok());
    let (right, what) = missing("4k3/8/8/8/8/8/6K1/R7 w Q - 0 1");
    assert_eq!(right, 'Q');
    assert!(what.contains("king") && what.contains("rank 1"), "{what}");
    let (right, what) = missing("4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    assert_eq!(right, 'K');
    assert!(what.contains("rook"), "{what}");
    let (right, what) = missing("r7/5k2/8/8/8/8/8/4K3 w q - 0 1");
    assert_eq!(right, 'q');
    assert!(what.contains("king") && what.contains("rank 8"), "{what}");
    let (right, what) = missing("r3k3/8/8/8/8/8/8/4K3 w k - 0 1");
    assert_eq!(right, 'k');
    assert!(what.contains("rook") && what.contains("h8"), "{what}");
}

#[test]
fn ep_square_errors() {
    let invalid = |fen: &str| match position_error(fen) {
        PositionError::InvalidEpSquare { square, .. } => square,
        other => panic!("{fen}: expected InvalidEpSquare, got {other:?}"),
    };
    // No white pawn on e4 that could have come from e2.
    assert_eq!(invalid("4k3/8/8/8/8/8/8/4K3 b - e3 0 1"), square("e3"));
    // A black pawn on d5 is not a white double push.
    assert_eq!(invalid("4k3/8/8/3p4/8/8/8/4K3 b - d3 0 1"), square("d3"));
    // The ep square itself occupied.
    assert_eq!(invalid("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1"), square("e3"));
    // The pawn's origin square occupied.
    assert_eq!(invalid("4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1"), square("e3"));
    assert_eq!(invalid("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1"), square("d6"));
    // A setup (board editor) can name a rank that FEN parsing already rejects.
    let mut setup = fen::parse("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").expect("valid FEN");
    setup.ep_square = Some(square("e4"));
    assert!(matches!(
        Position::from_setup(&setup),
        Err(PositionError::InvalidEpSquare { square: sq, .. }) if sq == square("e4")
    ));
}
