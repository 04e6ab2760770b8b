//! UCI move notation: `e2e4`, `e7e8q` (promotion letter in either case), castling as `e1g1`.

use super::movegen::legal_moves;
use super::moves::Move;
use super::position::Position;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UciMoveError {
    #[error("'{0}' is not a UCI move (expected e.g. e2e4 or e7e8q)")]
    Syntax(String),
    #[error("'{mv}' is not legal in {fen}")]
    Illegal { mv: String, fen: String },
}

/// The legal move that `text` names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    let normalized = text.to_ascii_lowercase();
    let well_formed = matches!(normalized.len(), 4 | 5)
        && normalized.is_ascii()
        && super::Square::parse(&normalized[0..2]).is_some()
        && super::Square::parse(&normalized[2..4]).is_some()
        && normalized[4..].chars().all(|c| "nbrq".contains(c));
    if !well_formed {
        return Err(UciMoveError::Syntax(text.to_string()));
    }
    legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.to_string() == normalized)
        .ok_or_else(|| UciMoveError::Illegal {
            mv: text.to_string(),
            fen: pos.to_fen(),
        })
}

/// Plays a sequence of UCI moves from `pos`.
pub fn play_moves<'a>(
    pos: &Position,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Position, UciMoveError> {
    moves.into_iter().try_fold(*pos, |current, text| {
        parse_move(&current, text).map(|m| current.play(m))
    })
}
