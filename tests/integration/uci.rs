//! UCI move parsing and move sequences.

use vkperft::chess::uci::{parse_move, play_moves, UciMoveError};
use vkperft::chess::{MoveKind, Position, Role};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn promotion_letter_in_either_case() {
    let pos = position("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for text in ["a7b8Q", "a7b8q"] {
        let m = parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.kind().promotion(), Some(Role::Queen));
        assert_eq!(m.to_string(), "a7b8q");
    }
    for (text, role) in [
        ("a7a8N", Role::Knight),
        ("a7a8b", Role::Bishop),
        ("A7A8R", Role::Rook),
    ] {
        let m = parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.kind().promotion(), Some(role), "{text}");
    }
}

#[test]
fn special_moves_are_recognized() {
    let pos = position("r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1");
    assert_eq!(
        parse_move(&pos, "d4e3").map(|m| m.kind()),
        Ok(MoveKind::EnPassant)
    );
    assert_eq!(
        parse_move(&pos, "e8g8").map(|m| m.kind()),
        Ok(MoveKind::Castle)
    );
    assert_eq!(
        parse_move(&pos, "e8c8").map(|m| m.kind()),
        Ok(MoveKind::Castle)
    );
    let start = Position::startpos();
    assert_eq!(
        parse_move(&start, "e2e4").map(|m| m.kind()),
        Ok(MoveKind::DoublePush)
    );
}

#[test]
fn malformed_moves_are_syntax_errors() {
    let pos = Position::startpos();
    for text in [
        "", "e2", "e2e", "e2e4e5", "e2-e4", "e9e4", "i2e4", "e2e4k", "e2e4p", "0000", "é2e4",
        "e2e4 ",
    ] {
        assert_eq!(
            parse_move(&pos, text),
            Err(UciMoveError::Syntax(text.to_string())),
            "{text:?}"
        );
    }
}

#[test]
fn illegal_moves_are_rejected() {
    let start = Position::startpos();
    let illegal = |pos: &Position, text: &str| {
        assert_eq!(
            parse_move(pos, text),
            Err(UciMoveError::Illegal {
                mv: text.to_string(),
                fen: pos.to_fen()
            }),
            "{text}"
        );
    };
    illegal(&start, "e2e5");
    illegal(&start, "e7e5");
    illegal(&start, "e1g1");
    illegal(&start, "a1a3");
    // A pawn reaching the last rank must name its piece; others must not.
    let promo = position("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    illegal(&promo, "a7a8");
    illegal(&start, "e2e4q");
    // Pinned piece, and castling out of check.
    illegal(&position("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"), "e2d3");
    illegal(&position("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1"), "e1g1");
}

#[test]
fn play_moves_applies_sequences() {
    let start = Position::startpos();
    let after = play_moves(&start, ["e2e4", "e7e5", "g1f3", "b8c6"]).expect("legal");
    assert_eq!(
        after.to_fen(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    // An ep square appears only when the capture is legal: here after d5, e5 can take.
    let ep = play_moves(&start, ["e2e4", "a7a6", "e4e5", "d7d5"]).expect("legal");
    assert_eq!(
        ep.to_fen(),
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    let taken = play_moves(&ep, ["e5d6"]).expect("ep capture");
    assert_eq!(
        taken.to_fen(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
    assert!(play_moves(&start, [])
        .expect("no moves")
        .same_perft_state(&start));
    // The error names the first bad move and the position it was tried in.
    let after_e4 = play_moves(&start, ["e2e4"]).expect("legal");
    assert_eq!(
        play_moves(&start, ["e2e4", "e2e4", "e7e5"]).map(|p| p.to_fen()),
        Err(UciMoveError::Illegal {
            mv: "e2e4".into(),
            fen: after_e4.to_fen()
        })
    );
    assert_eq!(
        play_moves(&start, ["e2e4", "bad"]).map(|p| p.to_fen()),
        Err(UciMoveError::Syntax("bad".into()))
    );
}
