//! Finding a move generator's bug: the user's engine's divide is compared with vkperft's, and
//! the walk descends into a move whose count differs, ply by ply, until the engine's move list
//! itself is wrong. It reports the moves from the root to that position, its FEN, and the moves
//! the engine misses or invents there. vkperft's divide comes from the caller
//! ([`ExactDivide`]; they pass the CPU backend's exact divide), so the hunt needs no backend.
//!
//! Engines are reached the two ways the field's tools use: UCI (`go perft N`, Stockfish's
//! divide) and perftree's script interface (`CMD depth fen moves`).

mod divide_output;
mod engine;
mod engine_process;
mod error;
mod open_engine;
mod script_engine;
mod uci_engine;
mod walk;

pub use divide_output::{classify_line, EngineDivide, OutputLine};
pub use engine::{EngineUnderTest, PositionRequest};
pub use engine_process::{kill_running_engine, EngineProcess};
pub use error::HuntError;
pub use open_engine::{open_engine, open_engine_in, EngineCommand};
pub use script_engine::ScriptEngine;
pub use uci_engine::UciEngine;
pub use walk::{hunt, moves_text, Difference, ExactDivide, Finding, Step, WrongCount};
