//! Strict FEN parsing into a [`Setup`] and formatting of a [`Position`].
//!
//! The four mandatory fields must be present; the halfmove clock and fullmove number may be
//! omitted (they default to 0 and 1). Every error names the field and the problem.

use super::position::Position;
use super::setup::Setup;
use super::square::Square;
use super::types::{CastlingRights, Color, Piece};
use std::fmt::Write;
use thiserror::Error;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN has {0} field(s); it needs at least 4 (placement, side, castling, en passant)")]
    MissingFields(usize),
    #[error("placement field: {0} ranks, expected 8")]
    RankCount(usize),
    #[error("placement field: rank {rank} has {squares} squares, expected 8")]
    RankLength { rank: u8, squares: u32 },
    #[error("placement field: rank {rank} has two digits in a row")]
    ConsecutiveDigits { rank: u8 },
    #[error("placement field: bad piece letter '{letter}' in rank {rank}")]
    BadPieceLetter { rank: u8, letter: char },
    #[error("side to move field: '{0}', expected 'w' or 'b'")]
    BadSide(String),
    #[error("castling field: bad letter '{0}', expected a subset of KQkq or '-'")]
    BadCastlingLetter(char),
    #[error("castling field: '{0}' repeats a right")]
    RepeatedCastlingRight(String),
    #[error("en passant field: '{0}' is not a square or '-'")]
    BadEpSquare(String),
    #[error("en passant field: {square} is impossible with {turn} to move (expected rank {expected_rank})")]
    ImpossibleEpSquare {
        square: String,
        turn: Color,
        expected_rank: u8,
    },
    #[error("halfmove clock field: '{0}' is not a non-negative integer")]
    BadHalfmoveClock(String),
    #[error("fullmove number field: '{0}' is not a positive integer")]
    BadFullmoveNumber(String),
    #[error("trailing garbage after the fullmove number: '{0}'")]
    TrailingGarbage(String),
}

/// Parses a FEN without judging whether the position is legal (see [`Position::from_setup`]).
pub fn parse(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.len() {
        0 => return Err(FenError::Empty),
        n if n < 4 => return Err(FenError::MissingFields(n)),
        n if n > 6 => return Err(FenError::TrailingGarbage(fields[6..].join(" "))),
        _ => {}
    }
    let mut setup = Setup::empty();
    parse_placement(fields[0], &mut setup)?;
    setup.turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    setup.castling = parse_castling(fields[2])?;
    setup.ep_square = parse_ep(fields[3], setup.turn)?;
    if let Some(field) = fields.get(4) {
        setup.halfmove_clock =
            parse_counter(field).ok_or_else(|| FenError::BadHalfmoveClock(field.to_string()))?;
    }
    if let Some(field) = fields.get(5) {
        setup.fullmove_number = parse_counter(field)
            .filter(|&n| n > 0)
            .ok_or_else(|| FenError::BadFullmoveNumber(field.to_string()))?;
    }
    Ok(setup)
}

/// Digits only: `u32::from_str` would also take a leading `+`.
fn parse_counter(field: &str) -> Option<u32> {
    field
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| field.parse().ok())
        .flatten()
}

fn parse_placement(field: &str, setup: &mut Setup) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let rank_name = rank + 1;
        let mut file: u32 = 0;
        let mut previous_was_digit = false;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if previous_was_digit {
                    return Err(FenError::ConsecutiveDigits { rank: rank_name });
                }
                previous_was_digit = true;
                file += skip;
            } else {
                previous_was_digit = false;
                let piece = Piece::from_char(c).ok_or(FenError::BadPieceLetter {
                    rank: rank_name,
                    letter: c,
                })?;
                if file < 8 {
                    setup.board[Square::from_coords(file as u8, rank).index()] = Some(piece);
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank_name,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(field: &str) -> Result<CastlingRights, FenError> {
    if field == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in field.chars() {
        let right = match c {
            'K' => CastlingRights::WHITE_KING,
            'Q' => CastlingRights::WHITE_QUEEN,
            'k' => CastlingRights::BLACK_KING,
            'q' => CastlingRights::BLACK_QUEEN,
            _ => return Err(FenError::BadCastlingLetter(c)),
        };
        if rights.contains(right) {
            return Err(FenError::RepeatedCastlingRight(field.to_string()));
        }
        rights = rights.with(right);
    }
    Ok(rights)
}

fn parse_ep(field: &str, turn: Color) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square = Square::parse(field).ok_or_else(|| FenError::BadEpSquare(field.to_string()))?;
    let expected_rank = match turn {
        Color::White => 6,
        Color::Black => 3,
    };
    if square.rank() + 1 != expected_rank {
        return Err(FenError::ImpossibleEpSquare {
            square: field.to_string(),
            turn,
            expected_rank,
        });
    }
    Ok(Some(square))
}

/// The FEN of a position, with its canonical en passant square.
pub fn format(pos: &Position) -> String {
    format_setup(&pos.to_setup())
}

/// The FEN of a setup as it stands, valid or not (the board editor shows it while editing).
pub fn format_setup(setup: &Setup) -> String {
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match setup.board[Square::from_coords(file, rank).index()] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let ep = setup
        .ep_square
        .map_or_else(|| "-".to_string(), |sq| sq.to_string());
    let _ = write!(
        fen,
        " {} {} {} {} {}",
        setup.turn.char(),
        setup.castling,
        ep,
        setup.halfmove_clock,
        setup.fullmove_number
    );
    fen
}
