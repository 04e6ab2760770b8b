//! Strict FEN parsing into a [`Setup`] and formatting of a [`Position`].
//!
//! The four mandatory fields must be present; the halfmove clock and fullmove number may be
//! omitted (they default to 0 and 1). Every error names the field and the problem.

use super::bitboard::Bitboard;
use super::castling::CastlingNotation;
use super::position::{Position, PositionError};
use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Piece};
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
    #[error(
        "castling field: bad letter '{0}', expected KQkq, rook files (A-H for white, a-h for \
         black) or '-'"
    )]
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

/// Why a FEN string did not give a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("invalid FEN: {0}")]
    Fen(FenError),
    #[error("illegal position: {0}")]
    Position(PositionError),
}

// Written out instead of `#[from]`, which would also make the inner error the `source` and
// print its message twice in an error chain.
impl From<FenError> for ParseError {
    fn from(err: FenError) -> ParseError {
        ParseError::Fen(err)
    }
}

impl From<PositionError> for ParseError {
    fn from(err: PositionError) -> ParseError {
        ParseError::Position(err)
    }
}

/// A position read from and written as FEN; `Position` itself knows no FEN.
impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    pub fn from_fen(fen: &str) -> Result<Position, ParseError> {
        Ok(Position::from_setup(&parse(fen)?)?)
    }

    pub fn to_fen(&self) -> String {
        format(self)
    }
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
    (setup.castling_rooks, setup.castling_notation) = parse_castling(fields[2], &setup)?;
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

/// The castling rooks a castling field names, and the notation it is written in. `KQkq` name the
/// outermost rook on that side of the king (X-FEN); a letter `A`-`H` (`a`-`h` for black) names
/// the rook on that file (Shredder-FEN, or X-FEN for an inner rook). A right whose rook is not
/// there names the standard corner, and validation says what is missing.
fn parse_castling(field: &str, setup: &Setup) -> Result<(Bitboard, CastlingNotation), FenError> {
    if field == "-" {
        return Ok((Bitboard::EMPTY, CastlingNotation::Standard));
    }
    let mut rooks = Bitboard::EMPTY;
    let (mut side_letters, mut file_letters) = (0, 0);
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rook = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                side_letters += 1;
                setup.outermost_rook(color, c.eq_ignore_ascii_case(&'k'))
            }
            file @ 'a'..='h' => {
                file_letters += 1;
                Square::from_coords(file as u8 - b'a', color.back_rank())
            }
            _ => return Err(FenError::BadCastlingLetter(c)),
        };
        if rooks.contains(rook) {
            return Err(FenError::RepeatedCastlingRight(field.to_string()));
        }
        rooks = rooks.with(rook);
    }
    let notation = match (side_letters, file_letters) {
        (_, 0) => CastlingNotation::Standard,
        (0, _) => CastlingNotation::Shredder,
        _ => CastlingNotation::XFen,
    };
    Ok((rooks, notation))
}

/// The castling field: `-`, or white's rights then black's, each color's king side first.
fn castling_field(setup: &Setup) -> String {
    if setup.castling_rooks.is_empty() {
        return "-".to_string();
    }
    let mut rooks: Vec<Square> = setup.castling_rooks.into_iter().collect();
    rooks.sort_by_key(|&rook| {
        let (color, king_side) = setup.castling_side(rook);
        (color.index(), !king_side)
    });
    rooks
        .into_iter()
        .map(|rook| setup.castling_letter(rook))
        .collect()
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

/// The first four FEN fields (placement, side, castling, en passant), which name a position.
pub fn position_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
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
        castling_field(setup),
        ep,
        setup.halfmove_clock,
        setup.fullmove_number
    );
    fen
}
