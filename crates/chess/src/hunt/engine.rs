//! What the hunt asks of the engine under test, whichever kind it is.

use super::divide_output::EngineDivide;
use super::error::HuntError;
use crate::chess::MoveStats;

/// A position as the engine is asked for it: a FEN and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRequest {
    pub fen: String,
    pub moves: Vec<String>,
}

impl PositionRequest {
    /// The UCI `position` command for it (also how errors name it).
    pub fn uci_command(&self) -> String {
        if self.moves.is_empty() {
            format!("position fen {}", self.fen)
        } else {
            format!("position fen {} moves {}", self.fen, self.moves.join(" "))
        }
    }
}

/// An engine that answers divide requests.
pub trait EngineUnderTest {
    /// The engine's divide of `position` to `depth` plies.
    fn divide(&mut self, position: &PositionRequest, depth: u32)
        -> Result<EngineDivide, HuntError>;

    /// The move-type statistics of the last divide's lines, from an engine that counts them
    /// (vkperft itself, asked for them); none from an engine that gives divides only.
    fn move_stats(&self) -> Option<MoveStats> {
        None
    }
}
