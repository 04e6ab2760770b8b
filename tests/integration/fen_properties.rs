//! FEN input: any text parses to a position or an error, never a panic, and every legal
//! position survives formatting and parsing unchanged.

use crate::common;
use crate::strategies;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use vkperft::chess::fen;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{CastlingNotation, NybbleBoard, ParseError, Position, Setup, Zobrist};

const SEED: u64 = 0x0066_656e_7072_6f70;

/// Characters a mutation inserts: the FEN alphabet, digits outside it, signs, whitespace of
/// several kinds, and non-ASCII letters, digits and symbols.
const MUTATION_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7',
    '8', '/', ' ', '-', 'w', 'a', 'c', 'd', 'e', 'f', 'g', 'h', '0', '9', '+', '\t', '\n', '\0',
    '\u{3000}', '\u{a0}', 'é', 'ß', '♔', '٣', '８', '\u{fffd}',
];

/// Fields a mutation writes over another: counters at and past the limits of `u32`, signed and
/// padded numbers, and fields of the wrong kind.
const MUTATION_FIELDS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "+1",
    "007",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e3",
    "-",
    "--",
    "KQkqK",
    "e3",
    "e6",
    "a9",
    "w",
    "b",
    "8/8/8/8/8/8/8/8",
];

/// Text made of FEN fields' characters, in roughly the fields' order and lengths.
const FEN_ALPHABET_TEXT: &str = concat!(
    "[pnbrqkPNBRQK1-8/]{0,12}(/[pnbrqkPNBRQK1-9/]{0,10}){0,8}",
    "( [wb-]{0,2})?( [KQkq-]{0,5})?( [a-h1-8-]{0,3})?( [0-9+-]{0,11}){0,2}",
);

/// One edit of a FEN's characters or of its whitespace-separated fields.
#[derive(Clone, Debug)]
enum Edit {
    Replace(Index, char),
    Insert(Index, char),
    Delete(Index),
    SwapFields(Index, Index),
    ReplaceField(Index, String),
    DigitChange(Index, u8),
}

fn mutation_char() -> impl Strategy<Value = char> {
    prop_oneof![3 => select(MUTATION_CHARS), 1 => any::<char>()]
}

fn edit() -> impl Strategy<Value = Edit> {
    let field = prop_oneof![
        select(MUTATION_FIELDS).prop_map(str::to_string),
        "[0-9]{1,30}",
        any::<String>(),
    ];
    prop_oneof![
        (any::<Index>(), mutation_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<Index>(), mutation_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Edit::SwapFields(i, j)),
        (any::<Index>(), field).prop_map(|(i, f)| Edit::ReplaceField(i, f)),
        (any::<Index>(), 0u8..10).prop_map(|(i, d)| Edit::DigitChange(i, d)),
    ]
}

fn apply(fen: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let len = chars.len();
    match edit {
        Edit::Replace(i, c) if len > 0 => chars[i.index(len)] = *c,
        Edit::Insert(i, c) => chars.insert(i.index(len + 1), *c),
        Edit::Delete(i) if len > 0 => {
            chars.remove(i.index(len));
        }
        Edit::SwapFields(i, j) => {
            let (i, j) = (i.index(fields.len()), j.index(fields.len()));
            fields.swap(i, j);
            return fields.join(" ");
        }
        Edit::ReplaceField(i, field) => {
            let i = i.index(fields.len());
            fields[i].clone_from(field);
            return fields.join(" ");
        }
        Edit::DigitChange(i, digit) => {
            let digits: Vec<usize> = (0..len).filter(|&k| chars[k].is_ascii_digit()).collect();
            if !digits.is_empty() {
                chars[*i.get(&digits)] = char::from(b'0' + digit);
            }
        }
        _ => {}
    }
    chars.into_iter().collect()
}

/// FENs to mutate: the published positions, the walks' sharp starts and positions reached by
/// random walks from them.
fn valid_fens() -> Vec<String> {
    common::start_positions()
        .into_iter()
        .chain(common::random_positions(SEED, 300, 60))
        .map(|pos| pos.to_fen())
        .collect()
}

/// `pos` formats to a FEN that parses back to it, every field the FEN carries equal, and
/// formats again the same.
fn assert_fen_round_trip(pos: &Position) {
    let text = pos.to_fen();
    let back = Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(back.same_perft_state(pos), "{text} -> {}", back.to_fen());
    assert_same_written_setup(&back.to_setup(), &pos.to_setup(), &text);
    assert_eq!(back.to_fen(), text);
}

/// `back`, read from `text`, equals `setup` in every field, and in the castling notation where
/// the castling field tells it: that is `-` in every notation when no right is left, and X-FEN
/// writes only side letters (read as standard) or only file letters (read as Shredder-FEN) for
/// some placements of the rooks.
fn assert_same_written_setup(back: &Setup, setup: &Setup, text: &str) {
    let notation_is_written =
        setup.castling_rooks.any() && setup.castling_notation != CastlingNotation::XFen;
    let mut back = back.clone();
    if !notation_is_written {
        back.castling_notation = setup.castling_notation;
    }
    assert_eq!(&back, setup, "{text}");
}

/// Parses `text` both ways, which must agree; a position it gives must be usable: it round
/// trips, its keys can be computed and each of its moves played.
fn check_text(text: &str) {
    match (fen::parse(text), Position::from_fen(text)) {
        (Err(fen_err), Err(err)) => {
            assert_eq!(err, ParseError::Fen(fen_err), "{text:?}");
            assert!(!err.to_string().is_empty());
        }
        (Ok(setup), Err(ParseError::Position(err))) => {
            assert_eq!(Position::from_setup(&setup).err(), Some(err.clone()));
            assert!(!err.to_string().is_empty());
        }
        (Ok(setup), Ok(pos)) => {
            let written = fen::format_setup(&setup);
            let back = fen::parse(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_same_written_setup(&back, &setup, &written);
            assert_fen_round_trip(&pos);
            let zobrist = Zobrist::default();
            let hash = zobrist.hash(&pos);
            let key = NybbleBoard::from_position(&pos);
            assert!(key
                .to_position()
                .is_ok_and(|back| back.same_perft_state(&pos)));
            for &m in legal_moves(&pos).iter() {
                let child = pos.play(m);
                assert_eq!(
                    hash ^ zobrist.move_delta(&pos, m, &child),
                    zobrist.hash(&child)
                );
                assert_fen_round_trip(&child);
            }
        }
        (Err(fen_err), Ok(_)) => {
            panic!("{text:?}: parsed as a position but not as a FEN: {fen_err}")
        }
        (Ok(_), Err(err)) => panic!("{text:?}: a FEN error after the FEN parsed: {err}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check_text(&text);
    }

    #[test]
    fn text_in_the_fen_alphabet_never_panics(
        text in FEN_ALPHABET_TEXT
    ) {
        check_text(&text);
    }

    #[test]
    fn mutated_valid_fens_never_panic(
        fen in select(valid_fens()),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let text = edits.iter().fold(fen, |text, edit| apply(&text, edit));
        check_text(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Setups are formatted as they stand and parse back equal, legal or not.
    #[test]
    fn setup_round_trip(setup in strategies::setups()) {
        let text = fen::format_setup(&setup);
        prop_assert_eq!(fen::parse(&text), Ok(setup), "{}", text);
    }

    #[test]
    fn generated_positions_round_trip(pos in strategies::positions()) {
        assert_fen_round_trip(&pos);
        check_text(&pos.to_fen());
    }
}

#[test]
fn positions_of_random_games_round_trip() {
    for pos in common::random_positions(SEED ^ 1, 2_000, 120) {
        assert_fen_round_trip(&pos);
    }
    let mut rng = SplitMix64::new(SEED ^ 2);
    for start in common::start_positions() {
        common::walk(&mut rng, &start, 200, 50, |_, _, child| {
            assert_fen_round_trip(child)
        });
    }
}

#[test]
fn castling_fields_that_do_not_tell_the_notation_round_trip() {
    // Shredder-FEN, then no right left after the king moves.
    check_text("2kr3r/1b4b1/6q1/5R2/8/8/5K1B/R7 b d - 5 3");
    // X-FEN, then only the inner rook's right is left, written as its file letter alone.
    check_text("r1bq1rk1/p1p2p1p/p4n1b/3pP1p1/1P2P1P1/2P4P/P4P2/RNBQK1NR w Kf - 0 9");
    // X-FEN read from mixed letters, written back with side letters only.
    check_text("r3k2r/8/8/8/8/8/8/R3K2R w Qh - 0 1");
}
