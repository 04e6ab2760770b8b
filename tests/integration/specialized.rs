//! The specialised generator against the reference perft (`chess::perft`, built on the
//! plain generator that the shakmaty differential test checks): on random positions of every
//! combination of its compile-time parameters (side to move, en passant possible, castling
//! right left), standard and Chess960, with every slider lookup this CPU has.

use crate::common;

use std::collections::BTreeMap;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::perft;
use vkperft::chess::specialized::{self, NodeParameters, SliderLookup};
use vkperft::chess::Position;

const SEED: u64 = 0x5bec_1a11_5eed;
const SAMPLE: usize = 3000;
/// Positions checked per combination of parameters; the sample must hold at least this many.
const PER_COMBINATION: usize = 30;

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

/// Perft 1 and 2 in total and perft 3 per root move, so that a mismatch names the move.
fn check_position(pos: &Position, lookup: SliderLookup) {
    let fen = pos.to_fen();
    for depth in 1..=2 {
        assert_eq!(
            specialized::perft_with(pos, depth, lookup),
            perft::perft(pos, depth),
            "{fen}: perft {depth} with {lookup:?}"
        );
    }
    for &m in legal_moves(pos).iter() {
        let child = pos.play(m);
        assert_eq!(
            specialized::perft_with(&child, 2, lookup),
            perft::perft(&child, 2),
            "{fen}: perft 3 below {m} with {lookup:?}"
        );
    }
}

/// Checks up to [`PER_COMBINATION`] positions of each combination the sample holds, after
/// asserting that it holds that many of each combination in `required`.
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
    for lookup in SliderLookup::available() {
        for positions in by_parameters.values() {
            for pos in positions.iter().take(PER_COMBINATION) {
                check_position(pos, lookup);
            }
        }
    }
}

#[test]
fn standard_positions_of_every_parameter_combination() {
    check_sample(
        common::random_positions(SEED, SAMPLE, 60),
        &every_combination(),
    );
}

/// Chess960 walks seek castles, not en passant captures: every combination is checked that
/// the sample holds, and enough of each side's castling positions are required.
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

#[test]
fn deeper_than_a_u64_subtree_splits_at_the_root() {
    // Depth 9 takes the root split into u128; the small tree keeps it quick.
    let pos = Position::from_fen("k7/8/8/8/8/8/8/7K w - - 0 1").expect("valid FEN");
    assert_eq!(specialized::perft(&pos, 9), perft::perft(&pos, 9));
}
