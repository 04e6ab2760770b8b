//! UCI move notation: `e2e4`, `e7e8q` (promotion letter in either case), castling as `e1g1` in
//! standard chess and as king-to-rook `e1h1` in Chess960 (see [`super::moves`]). Either form of a
//! castle is accepted where it names no other move.

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

/// The legal move that `text` names in `pos`: in the position's notation, or a castle in the
/// other notation when no move of the position's notation is written so (in Chess960, `f1g1`
/// is a king step, not the castle of a king on f1).
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
    let moves = legal_moves(pos);
    let written_as = |chess960: bool| {
        moves
            .iter()
            .copied()
            .find(|m| m.with_chess960_notation(chess960).to_string() == normalized)
    };
    let chess960 = pos.notation().is_chess960();
    written_as(chess960)
        .or_else(|| written_as(!chess960))
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
