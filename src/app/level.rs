//! The levels of the walk down the divide: what each searched and found, and the order its
//! divide is shown in.

use super::live_run::LiveRun;
use crate::chess::{Move, Position};
use crate::engine::PerftResult;
use crate::hunt::EngineDivide;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One step of the walk: a position, the depth searched from it, and how it was reached.
pub struct Level {
    pub position: Position,
    pub depth: u32,
    /// The move from the level above; none at the root.
    pub via: Option<Move>,
    pub result: Option<Arc<PerftResult>>,
    /// Why there is no result (failed or cancelled).
    pub outcome: Option<String>,
    /// vkperft's divide by move, for a level a hunt compared (it has no run of its own).
    pub expected: Option<BTreeMap<String, u128>>,
    /// The user's engine's divide, once compared.
    pub engine: Option<EngineDivide>,
    /// The live panel of the level's run, kept for the breadcrumb to go back to.
    pub live: Option<LiveRun>,
}

impl Level {
    pub fn new(position: Position, depth: u32, via: Option<Move>) -> Level {
        Level {
            position,
            depth,
            via,
            result: None,
            outcome: None,
            expected: None,
            engine: None,
            live: None,
        }
    }

    /// vkperft's divide by move: the run's, or the one a hunt compared.
    pub fn divide(&self) -> Option<BTreeMap<String, u128>> {
        if let Some(result) = &self.result {
            return Some(
                result
                    .divide
                    .iter()
                    .map(|(mv, counts)| (mv.to_string(), counts.nodes))
                    .collect(),
            );
        }
        self.expected.clone()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DivideOrder {
    #[default]
    MoveAscending,
    MoveDescending,
    NodesAscending,
    NodesDescending,
}
