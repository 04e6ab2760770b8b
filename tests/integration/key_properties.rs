//! Position keys along seeded random games: the Zobrist hash kept up to date by
//! `Zobrist::move_delta` and the NybbleBoard key of each position reached by moves equal the keys
//! computed from scratch, from the position's FEN.

use crate::common;
use crate::strategies;

use proptest::prelude::*;
use proptest::sample::select;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{NybbleBoard, Position, Zobrist};

fn start() -> impl Strategy<Value = Position> {
    prop_oneof![
        select(common::start_positions()),
        strategies::positions_with_moves(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn keys_along_games_equal_full_recomputation(
        start in start(),
        game_seed in any::<u64>(),
        plies in 0usize..150,
        sharp_percent in 0u64..=100,
        zobrist_seed in any::<u64>(),
    ) {
        let zobrist = Zobrist::new(zobrist_seed);
        let mut rng = SplitMix64::new(game_seed);
        let mut hash = zobrist.hash(&start);
        common::walk(&mut rng, &start, plies, sharp_percent, |parent, m, child| {
            hash ^= zobrist.move_delta(parent, m, child);
            let fen = child.to_fen();
            let fresh = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(hash, zobrist.hash(&fresh), "{} {m}", parent.to_fen());
            let key = NybbleBoard::from_position(child);
            assert_eq!(key, NybbleBoard::from_position(&fresh), "{} {m}", parent.to_fen());
            let decoded = key.to_position().unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(decoded.same_perft_state(child), "{fen} -> {}", decoded.to_fen());
        });
    }
}
