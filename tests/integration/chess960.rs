//! Chess960: the 960 start positions against their published perft, random Chess960 games
//! against shakmaty in Chess960 mode, FEN forms, castling notation and keys.

use crate::common::{
    random_chess960_positions, shakmaty_divide, shakmaty_position, CHESS960_SHARP_FENS,
};
use shakmaty::{CastlingMode, Position as _};
use std::collections::BTreeMap;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::perft;
use vkperft::chess::{uci, CastlingNotation, MoveKind, NybbleBoard, Position, Zobrist};
use vkperft::reference::chess960::{start_positions, MAX_DEPTH};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn divide_by_text(pos: &Position, depth: u32) -> BTreeMap<String, u128> {
    perft::divide(pos, depth)
        .into_iter()
        .map(|(m, nodes)| (m.to_string(), nodes))
        .collect()
}

/// Both FEN forms of every start position give the same position, are written back as given,
/// and count their published perft to depth 4.
#[test]
fn every_start_position_matches_its_published_perft_to_depth_4() {
    for start in start_positions() {
        let xfen = position(start.xfen);
        let shredder = position(start.shredder_fen);
        assert!(xfen.same_perft_state(&shredder), "{}", start.index);
        assert_eq!(xfen.to_fen(), start.xfen, "X-FEN written back");
        assert_eq!(
            shredder.to_fen(),
            start.shredder_fen,
            "Shredder-FEN written back"
        );
        let expected = start.nodes(4).map(u128::from);
        assert_eq!(
            Some(perft::perft(&xfen, 4)),
            expected,
            "start position {} ({})",
            start.index,
            start.xfen
        );
    }
}

/// Depth 5 of all 960 (about 4.7e9 nodes): `cargo test --profile testing -- --ignored`.
#[test]
#[ignore]
fn every_start_position_matches_its_published_perft_to_depth_5() {
    for start in start_positions() {
        assert_eq!(
            Some(perft::perft(&position(start.shredder_fen), MAX_DEPTH)),
            start.nodes(MAX_DEPTH).map(u128::from),
            "start position {}",
            start.index
        );
    }
}

/// Legal moves and divides to depth 3 equal shakmaty's (Chess960 mode) on random Chess960
/// games, and enough of them castle in the ways only Chess960 allows.
#[test]
fn random_chess960_games_equal_shakmaty() {
    let (mut castles, mut king_stays, mut rook_jumps) = (0, 0, 0);
    for pos in random_chess960_positions(0x3936_305f_6469, 600, 40) {
        let fen = pos.to_fen();
        let reparsed = position(&fen);
        assert!(reparsed.same_perft_state(&pos), "FEN round trip of {fen}");
        let theirs = shakmaty_position(&fen, CastlingMode::Chess960);
        let mut ours: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
        ours.sort();
        let mut expected: Vec<String> = theirs
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
            .collect();
        expected.sort();
        assert_eq!(ours, expected, "legal moves of {fen}");
        for depth in 1..=3 {
            assert_eq!(
                divide_by_text(&pos, depth),
                shakmaty_divide(&theirs, depth, CastlingMode::Chess960),
                "divide({depth}) of {fen}"
            );
        }
        for m in legal_moves(&pos)
            .iter()
            .filter(|m| m.kind() == MoveKind::Castle)
        {
            castles += 1;
            let king_to = if m.to().file() > m.from().file() {
                6
            } else {
                2
            };
            king_stays += usize::from(m.from().file() == king_to);
            let (low, high) = (
                m.from().file().min(m.to().file()),
                m.from().file().max(m.to().file()),
            );
            rook_jumps += usize::from(!(low..=high).contains(&king_to));
        }
    }
    assert!(castles >= 150, "{castles} castles");
    assert!(
        king_stays >= 20,
        "{king_stays} castles of a king that stays"
    );
    assert!(
        rook_jumps >= 15,
        "{rook_jumps} castles whose king passes its rook"
    );
}

#[test]
fn the_sharp_positions_equal_shakmaty_to_depth_4() {
    for fen in CHESS960_SHARP_FENS {
        let pos = position(fen);
        assert_eq!(
            divide_by_text(&pos, 4),
            shakmaty_divide(
                &shakmaty_position(fen, CastlingMode::Chess960),
                4,
                CastlingMode::Chess960
            ),
            "{fen}"
        );
    }
}

#[test]
fn a_rook_that_shields_the_kings_target_cannot_castle() {
    let pos = position("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1");
    let moves: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
    assert!(!moves.contains(&"d1b1".to_string()), "{moves:?}");
    // Without their rook, the same castle is legal: king to c1, rook to d1.
    let free = position("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1");
    let castle = uci::parse_move(&free, "d1b1").expect("the castle is legal");
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(free.play(castle).to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn castles_are_written_king_to_rook_in_chess960_and_as_the_kings_step_in_standard_chess() {
    let standard = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(standard.notation(), CastlingNotation::Standard);
    let castles = |pos: &Position| -> Vec<String> {
        let mut moves: Vec<String> = legal_moves(pos)
            .iter()
            .filter(|m| m.kind() == MoveKind::Castle)
            .map(|m| m.to_string())
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(castles(&standard), ["e1c1", "e1g1"]);
    let chess960 = standard.with_notation(CastlingNotation::Shredder);
    assert_eq!(castles(&chess960), ["e1a1", "e1h1"]);
    assert_eq!(chess960.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    // Either form is accepted where it names no other move.
    for (pos, text, written) in [
        (&standard, "e1h1", "e1g1"),
        (&standard, "e1g1", "e1g1"),
        (&chess960, "e1g1", "e1h1"),
        (&chess960, "e1c1", "e1a1"),
    ] {
        let m = uci::parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.to_string(), written);
    }
    // A king on f1 castling short lands on g1, where a plain king step also goes: f1g1 is the
    // step, and the castle is f1h1 only.
    let king_f1 = position("4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    assert_eq!(king_f1.notation(), CastlingNotation::XFen);
    let step = uci::parse_move(&king_f1, "f1g1").expect("a king step");
    assert_eq!(step.kind(), MoveKind::Normal);
    assert_eq!(
        uci::parse_move(&king_f1, "f1h1")
            .expect("the castle")
            .kind(),
        MoveKind::Castle
    );
}

#[test]
fn fen_forms_are_written_back_as_given() {
    for (given, written) in [
        // X-FEN: KQkq for the outermost rooks, a file letter for an inner one.
        (
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1",
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1",
        ),
        (
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w KQkq - 0 1",
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w KQkq - 0 1",
        ),
        (
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GQgq - 0 1",
            "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GQgq - 0 1",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        ),
        (
            "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        ),
    ] {
        assert_eq!(position(given).to_fen(), written, "{given}");
    }
    let inner = position("1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1");
    assert_eq!(inner.notation(), CastlingNotation::Shredder);
    assert_eq!(
        position("1r2k1rr/8/8/8/8/8/8/1R2K1RR w GQgq - 0 1").notation(),
        CastlingNotation::XFen
    );
}

/// Two positions that differ only in which rook holds the right differ in every key, and in
/// their moves.
#[test]
fn the_rook_that_holds_the_right_is_part_of_every_key() {
    let inner = position("4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    let outer = position("4k3/8/8/8/8/8/8/4K1RR w H - 0 1");
    assert!(!inner.same_perft_state(&outer));
    for seed in [1, 2, 0x766b] {
        let zobrist = Zobrist::new(seed);
        assert_ne!(zobrist.hash(&inner), zobrist.hash(&outer), "seed {seed}");
    }
    assert_ne!(
        NybbleBoard::from_position(&inner),
        NybbleBoard::from_position(&outer)
    );
    assert_ne!(divide_by_text(&inner, 1), divide_by_text(&outer, 1));
    for pos in [inner, outer] {
        let back = NybbleBoard::from_position(&pos)
            .to_position()
            .expect("a legal key");
        assert!(back.same_perft_state(&pos), "{}", pos.to_fen());
    }
}

/// Incremental Zobrist updates equal the full hash across Chess960 games, castles included.
#[test]
fn incremental_keys_follow_chess960_castles() {
    let zobrist = Zobrist::default();
    let mut castles = 0;
    for pos in random_chess960_positions(0x6b65_7939, 300, 30) {
        for &m in legal_moves(&pos).iter() {
            let child = pos.play(m);
            castles += usize::from(m.kind() == MoveKind::Castle);
            assert_eq!(
                zobrist.hash(&pos) ^ zobrist.move_delta(&pos, m, &child),
                zobrist.hash(&child),
                "{m} in {}",
                pos.to_fen()
            );
            if m.kind() != MoveKind::DoublePush {
                assert_eq!(
                    zobrist.move_delta_before_play(&pos, m),
                    Some(zobrist.move_delta(&pos, m, &child)),
                    "{m} in {}",
                    pos.to_fen()
                );
            }
            let back = NybbleBoard::from_position(&child)
                .to_position()
                .expect("a legal child");
            assert!(back.same_perft_state(&child), "{m} in {}", pos.to_fen());
        }
    }
    assert!(castles >= 50, "{castles} castles");
}

#[test]
fn castling_rights_need_their_king_and_rook() {
    let error = |fen: &str| match Position::from_fen(fen) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{fen} was accepted"),
    };
    let message = error("4k3/8/8/8/8/8/8/1RR1K3 w BC - 0 1");
    assert!(
        message.contains("two castling rooks on the queen side"),
        "{message}"
    );
    let message = error("4k3/8/8/8/8/8/4K3/1R6 w B - 0 1");
    assert!(message.contains("king on rank 1"), "{message}");
    let message = error("4k3/8/8/8/8/8/8/4K3 w D - 0 1");
    assert!(message.contains("rook on d1"), "{message}");
    let message = error("4k3/8/8/8/8/8/8/4K3 w X - 0 1");
    assert!(message.contains("'X'"), "{message}");
}
