//! Arbitrary bytes as a FEN: parsing gives a position or an error, never a panic, and a position
//! formats to a FEN that parses back to it and plays a few legal moves with consistent keys.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{fen, NybbleBoard, Position, Zobrist};

const PLIES: usize = 8;

fn assert_round_trip(pos: &Position) {
    let text = pos.to_fen();
    let back = Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(back.same_perft_state(pos), "{text}");
    assert_eq!(back.to_setup(), pos.to_setup(), "{text}");
    let key = NybbleBoard::from_position(pos);
    let decoded = key.to_position().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(decoded.same_perft_state(pos), "{text}");
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(setup) = fen::parse(&text) {
        assert_eq!(fen::parse(&fen::format_setup(&setup)), Ok(setup));
    }
    let Ok(mut pos) = Position::from_fen(&text) else {
        return;
    };
    let zobrist = Zobrist::default();
    let mut hash = zobrist.hash(&pos);
    // The moves played depend on the whole input, so the fuzzer steers them too.
    let mut rng = SplitMix64::new(data.iter().fold(0, |h, &b| h.rotate_left(8) ^ u64::from(b)));
    assert_round_trip(&pos);
    for _ in 0..PLIES {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        let child = pos.play(m);
        hash ^= zobrist.move_delta(&pos, m, &child);
        assert_eq!(hash, zobrist.hash(&child), "{} {m}", pos.to_fen());
        assert_round_trip(&child);
        pos = child;
    }
});
