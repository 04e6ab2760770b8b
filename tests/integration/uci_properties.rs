//! UCI move input: any text is a legal move or an error, never a panic, and a move is accepted
//! exactly when its lower-cased text names a legal move.

use crate::common;
use crate::strategies;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::uci::{parse_move, play_moves};
use vkperft::chess::Position;

const SEED: u64 = 0x0075_6369_7072_6f70;

/// Move text: well-formed moves (most of them illegal), near misses, and anything at all.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-h][1-8][a-h][1-8][nbrqkpNBRQKP]?",
        "[a-iA-I0-9]{0,6}",
        "[a-h][1-8][a-h][1-8][é♔\u{0}]",
        any::<String>(),
    ]
}

/// One step of a move sequence: the legal move at an index, or text.
#[derive(Clone, Debug)]
enum Step {
    Legal(Index, bool),
    Text(String),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (any::<Index>(), any::<bool>()).prop_map(|(i, upper)| Step::Legal(i, upper)),
        move_text().prop_map(Step::Text),
    ]
}

fn start() -> impl Strategy<Value = Position> {
    let walked = common::random_positions(SEED, 200, 60);
    prop_oneof![select(walked), strategies::positions_with_moves()]
}

/// What `parse_move` must do: the legal move whose text is `text` in lower case.
fn expected_move(pos: &Position, text: &str) -> Option<vkperft::chess::Move> {
    let lower = text.to_ascii_lowercase();
    legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.to_string() == lower)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn every_legal_move_parses_back(pos in start()) {
        for &m in legal_moves(&pos).iter() {
            let text = m.to_string();
            prop_assert_eq!(parse_move(&pos, &text), Ok(m));
            prop_assert_eq!(parse_move(&pos, &text.to_ascii_uppercase()), Ok(m));
        }
    }

    #[test]
    fn move_sequences_never_panic(
        pos in start(),
        steps in prop::collection::vec(step(), 0..8),
    ) {
        // Turn the steps into text along the way, and find the expected end position.
        let mut texts = Vec::new();
        let mut expected = Some(pos);
        for step in &steps {
            let text = match (step, expected) {
                (Step::Legal(i, upper), Some(current)) => {
                    let moves = legal_moves(&current);
                    if moves.is_empty() {
                        "a1a1".to_string()
                    } else {
                        let text = moves.as_slice()[i.index(moves.len())].to_string();
                        if *upper { text.to_ascii_uppercase() } else { text }
                    }
                }
                (Step::Legal(..), None) => "e2e4".to_string(),
                (Step::Text(text), _) => text.clone(),
            };
            expected = expected.and_then(|current| {
                expected_move(&current, &text).map(|m| current.play(m))
            });
            texts.push(text);
        }
        let played = play_moves(&pos, texts.iter().map(String::as_str));
        match (played, expected) {
            (Ok(end), Some(wanted)) => prop_assert!(end.same_perft_state(&wanted)),
            (Err(err), None) => prop_assert!(!err.to_string().is_empty()),
            (played, expected) => prop_assert!(
                false,
                "{} {:?}: played {:?}, expected {:?}",
                pos.to_fen(),
                texts,
                played.map(|p| p.to_fen()),
                expected.map(|p| p.to_fen())
            ),
        }
    }
}
