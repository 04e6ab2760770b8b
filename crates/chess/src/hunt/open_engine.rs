//! How the user's engine is reached: a UCI engine or a perftree script.

use super::engine::EngineUnderTest;
use super::engine_process::{command_line_engine, EngineProcess};
use super::error::HuntError;
use super::script_engine::ScriptEngine;
use super::uci_engine::UciEngine;
use std::sync::Arc;
use std::time::Duration;

/// How to reach the user's engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineCommand {
    /// A UCI engine started with this shell command, asked `go perft N`.
    Uci(String),
    /// A perftree-style script, called as `CMD depth fen moves` for each request.
    Script(String),
}

/// Starts the engine `command` names; each request may take at most `timeout`. A UCI engine is
/// told `UCI_Chess960` when `chess960`, so that it writes castles king-to-rook as vkperft then
/// does (a perftree script reads the notation from the FEN it is given). Ctrl-C's handler kills
/// it with [`super::kill_running_engine`].
pub fn open_engine(
    command: &EngineCommand,
    timeout: Duration,
    chess960: bool,
) -> Result<Box<dyn EngineUnderTest + Send>, HuntError> {
    open_engine_in(command, timeout, chess960, command_line_engine())
}

/// [`open_engine`], with the engine's processes registered in `process`, which kills them.
pub fn open_engine_in(
    command: &EngineCommand,
    timeout: Duration,
    chess960: bool,
    process: Arc<EngineProcess>,
) -> Result<Box<dyn EngineUnderTest + Send>, HuntError> {
    Ok(match command {
        EngineCommand::Uci(command) => {
            Box::new(UciEngine::start(command, timeout, chess960, process)?)
        }
        EngineCommand::Script(command) => Box::new(ScriptEngine::new(command, timeout, process)),
    })
}
