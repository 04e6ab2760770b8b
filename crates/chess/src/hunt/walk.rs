//! The walk from the root to the first wrong position.

use super::divide_output::EngineDivide;
use super::engine::{EngineUnderTest, PositionRequest};
use super::error::HuntError;
use crate::chess::{Move, Position};
use std::collections::BTreeMap;

/// vkperft's divide of a position to a depth, per move.
pub type ExactDivide<'a> = dyn FnMut(&Position, u32) -> Vec<(Move, u128)> + 'a;

/// A move both list with different counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongCount {
    pub mv: Move,
    /// vkperft's count.
    pub expected: u128,
    /// The engine's count.
    pub engine: u128,
}

/// One comparison of the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Moves from the hunt's root to the compared position.
    pub path: Vec<Move>,
    pub position: Position,
    pub depth: u32,
    /// vkperft's divide, by move in UCI, as the engine's divide is keyed.
    pub expected: BTreeMap<String, u128>,
    pub engine: EngineDivide,
}

/// How the engine differs at the position the walk ended on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// It agrees with vkperft at the root.
    None,
    /// Its move list is wrong: legal moves it does not list, and moves it lists that are not
    /// legal, as the engine wrote them (either may be empty, not both).
    Moves {
        missing: Vec<Move>,
        extra: Vec<String>,
    },
    /// At depth 1 it lists the right moves but counts other than 1 for some.
    Counts,
    /// Every move's count agrees, but not the total it printed.
    TotalOnly { expected: u128, engine: u128 },
    /// Asked from the parent it counted `from_parent` below this position, but its divide here
    /// agrees with vkperft's `expected`: it answers differently depending on how it got here.
    Inconsistent { expected: u128, from_parent: u128 },
}

/// Where the walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Moves from the hunt's root to the wrong position (empty: the root).
    pub path: Vec<Move>,
    /// The wrong position.
    pub position: Position,
    /// The depth it was compared at.
    pub depth: u32,
    pub difference: Difference,
    /// Moves both list whose counts differ there.
    pub wrong_counts: Vec<WrongCount>,
    /// Engine queries made.
    pub queries: usize,
}

impl Finding {
    pub fn agrees(&self) -> bool {
        self.difference == Difference::None
    }
}

/// Compares `engine`'s divide of `root` (the engine is sent `root_request`, whose moves the
/// walk extends) at `depth` with `expected` (vkperft's divide of a position), and descends
/// into the differing move with the smallest count until the engine's move list is wrong or
/// depth 1 is reached. `on_step` sees each comparison. At most `max_queries` engine calls.
pub fn hunt(
    root: &Position,
    root_request: &PositionRequest,
    depth: u32,
    engine: &mut dyn EngineUnderTest,
    expected: &mut ExactDivide<'_>,
    max_queries: usize,
    on_step: &mut dyn FnMut(&Step),
) -> Result<Finding, HuntError> {
    let mut position = *root;
    let mut path: Vec<Move> = Vec::new();
    let mut depth = depth.max(1);
    let mut queries = 0;
    let mut from_parent: Option<u128> = None;
    loop {
        if queries == max_queries {
            return Err(HuntError::QueryLimit {
                limit: max_queries,
                path: path_text(&path),
            });
        }
        let request = PositionRequest {
            fen: root_request.fen.clone(),
            moves: root_request
                .moves
                .iter()
                .cloned()
                .chain(path.iter().map(Move::to_string))
                .collect(),
        };
        let engine_divide = engine.divide(&request, depth)?;
        queries += 1;
        // Keyed by UCI text, as the engine writes moves; the order of the reports.
        let exact: BTreeMap<String, (Move, u128)> = expected(&position, depth)
            .into_iter()
            .map(|(m, count)| (m.to_string(), (m, count)))
            .collect();
        let expected_divide: BTreeMap<String, u128> = exact
            .iter()
            .map(|(text, &(_, count))| (text.clone(), count))
            .collect();
        on_step(&Step {
            path: path.clone(),
            position,
            depth,
            expected: expected_divide.clone(),
            engine: engine_divide.clone(),
        });
        let missing: Vec<Move> = exact
            .iter()
            .filter(|(text, _)| !engine_divide.moves.contains_key(*text))
            .map(|(_, &(m, _))| m)
            .collect();
        let extra: Vec<String> = engine_divide
            .moves
            .keys()
            .filter(|m| !expected_divide.contains_key(*m))
            .cloned()
            .collect();
        let wrong_counts: Vec<WrongCount> = exact
            .iter()
            .filter_map(|(text, &(mv, count))| {
                let engine = *engine_divide.moves.get(text)?;
                (engine != count).then_some(WrongCount {
                    mv,
                    expected: count,
                    engine,
                })
            })
            .collect();
        let finding = |difference| Finding {
            path: path.clone(),
            position,
            depth,
            difference,
            wrong_counts: wrong_counts.clone(),
            queries,
        };
        if !missing.is_empty() || !extra.is_empty() {
            return Ok(finding(Difference::Moves { missing, extra }));
        }
        let expected_total: u128 = expected_divide.values().sum();
        let Some(descend) = wrong_counts.iter().min_by_key(|wrong| wrong.expected) else {
            let engine_total = engine_divide.total();
            if engine_total != expected_total {
                return Ok(finding(Difference::TotalOnly {
                    expected: expected_total,
                    engine: engine_total,
                }));
            }
            return Ok(finding(match from_parent {
                None => Difference::None,
                Some(from_parent) => Difference::Inconsistent {
                    expected: expected_total,
                    from_parent,
                },
            }));
        };
        if depth == 1 {
            return Ok(finding(Difference::Counts));
        }
        from_parent = Some(descend.engine);
        position = position.play(descend.mv);
        path.push(descend.mv);
        depth -= 1;
    }
}

/// Moves as the user would type them, or "the root".
fn path_text(path: &[Move]) -> String {
    if path.is_empty() {
        "the root".to_string()
    } else {
        moves_text(path)
    }
}

/// Moves in UCI, separated by spaces: how reports write a path or a list.
pub fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
