//! Differential test against shakmaty: on positions from seeded random walks, the legal moves,
//! check status, canonical ep square and perft 1-3 per root move must all agree.

use crate::common;

use crate::common::{shakmaty_divide, shakmaty_position};
use shakmaty::{CastlingMode, EnPassantMode, Position as _};
use std::collections::BTreeMap;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::perft;
use vkperft::chess::{MoveKind, Position};

const SEED: u64 = 0x00d1_ff00_5eed;
const SAMPLE: usize = 4000;
const MAX_PLIES: usize = 60;
/// The sample is checked in this many tests so that they run in parallel.
const PARTS: usize = 4;

fn sample() -> Vec<Position> {
    common::random_positions(SEED, SAMPLE, MAX_PLIES)
}

fn vkperft_divide(pos: &Position, depth: u32) -> BTreeMap<String, u128> {
    perft::divide(pos, depth)
        .into_iter()
        .map(|(m, nodes)| (m.to_string(), nodes))
        .collect()
}

fn check_position(pos: &Position) {
    let fen = pos.to_fen();
    let reparsed = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert!(reparsed.same_perft_state(pos), "FEN round trip of {fen}");
    assert_eq!(reparsed.to_fen(), fen);

    let theirs = shakmaty_position(&fen, CastlingMode::Standard);
    let mut ours: Vec<String> = legal_moves(pos).iter().map(|m| m.to_string()).collect();
    ours.sort();
    let mut expected: Vec<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    expected.sort();
    assert_eq!(ours, expected, "legal moves of {fen}");
    assert_eq!(pos.checkers().any(), theirs.is_check(), "check in {fen}");
    assert_eq!(
        pos.ep_square().map(|sq| sq.to_string()),
        theirs
            .ep_square(EnPassantMode::Legal)
            .map(|sq| sq.to_string()),
        "canonical ep square of {fen}"
    );
    for depth in 1..=3 {
        assert_eq!(
            vkperft_divide(pos, depth),
            shakmaty_divide(&theirs, depth, CastlingMode::Standard),
            "divide({depth}) of {fen}"
        );
    }
}

fn check_part(part: usize) {
    let positions = sample();
    let chunk = SAMPLE / PARTS;
    for pos in &positions[part * chunk..(part + 1) * chunk] {
        check_position(pos);
    }
}

#[test]
fn differential_part_0() {
    check_part(0);
}

#[test]
fn differential_part_1() {
    check_part(1);
}

#[test]
fn differential_part_2() {
    check_part(2);
}

#[test]
fn differential_part_3() {
    check_part(3);
}

/// The sample must really exercise the rare cases, or agreeing on it would prove little.
#[test]
fn sample_covers_rare_cases() {
    const MINIMUM: usize = 50;
    let (mut ep, mut promotion, mut castle, mut check, mut double_check) = (0, 0, 0, 0, 0);
    for pos in sample() {
        let moves = legal_moves(&pos);
        let has = |kind: fn(MoveKind) -> bool| moves.iter().any(|m| kind(m.kind()));
        ep += usize::from(has(|k| k == MoveKind::EnPassant));
        promotion += usize::from(has(|k| k.promotion().is_some()));
        castle += usize::from(has(|k| k == MoveKind::Castle));
        check += usize::from(pos.checkers().any());
        double_check += usize::from(pos.checkers().count() > 1);
    }
    let counts = format!(
        "ep {ep}, promotion {promotion}, castle {castle}, check {check}, double check {double_check}"
    );
    assert!(ep >= MINIMUM, "{counts}");
    assert!(promotion >= MINIMUM, "{counts}");
    assert!(castle >= MINIMUM, "{counts}");
    assert!(check >= MINIMUM, "{counts}");
    assert!(double_check >= 10, "{counts}");
}
