//! Whether a plan is the plan its root and depth make: a plan's files are sealed with checksums
//! that anyone can recompute, so a merge and a certificate's check derive what they rely on
//! from the root itself. [`check_paths`] (every merge) compares the root moves with the root's
//! legal moves, each unit's depth with the plan's, and the units' paths per root move with
//! perft(split ply - 1) after that move. [`rederive`] (`work verify-certificate`) splits the
//! root again and compares every unit: its position, its paths and its paths per root move.

use super::error::WorkError;
use super::folder::PlanFolder;
use super::manifest::MANIFEST_FILE;
use super::unit::Unit;
use crate::chess::movegen::legal_moves;
use crate::chess::perft::divide;
use crate::chess::Position;
use crate::unique::{available_threads, expand, ExpansionOptions, UniqueError};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// How many differing units a re-derivation lists before it only counts them.
const LISTED_FAULTS: usize = 20;

/// One way in which a plan is not what its root and depth make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanFault {
    /// The manifest's root moves are not the root's legal moves in generation order.
    RootMoves {
        listed: Vec<String>,
        legal: Vec<String>,
    },
    /// The manifest's paths are not perft(split ply) of the root.
    Paths { listed: String, perft: u128 },
    /// A unit's depth is not the plan's depth minus its split ply.
    UnitDepth {
        unit: u64,
        depth: u32,
        expected: u32,
    },
    /// A unit names a root move the root does not have.
    UnitRootMove { unit: u64, mv: String },
    /// The units' paths below a root move do not add up to perft(split ply - 1) after it.
    RootMovePaths {
        mv: String,
        units: u128,
        perft: u128,
    },
    /// A unit differs from the unit of the same number that the root gives.
    Unit {
        unit: u64,
        what: &'static str,
        plan: String,
        derived: String,
    },
    /// The plan has another number of units than the root gives.
    UnitCount { plan: u64, derived: u64 },
    /// More differing units than are listed.
    More(u64),
}

impl fmt::Display for PlanFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanFault::RootMoves { listed, legal } => write!(
                f,
                "the plan's root moves are {}; the root's legal moves are {}",
                listed.join(" "),
                legal.join(" ")
            ),
            PlanFault::Paths { listed, perft } => write!(
                f,
                "the plan gives {listed} paths to its split ply; perft of the root to that ply is {perft}"
            ),
            PlanFault::UnitDepth {
                unit,
                depth,
                expected,
            } => write!(
                f,
                "unit {unit}: depth {depth}, but the plan leaves {expected} plies below its split ply"
            ),
            PlanFault::UnitRootMove { unit, mv } => {
                write!(f, "unit {unit}: root move {mv} is not a legal move of the root")
            }
            PlanFault::RootMovePaths { mv, units, perft } => write!(
                f,
                "root move {mv}: the units' paths add up to {units}, perft below it is {perft}: a unit's paths were changed"
            ),
            PlanFault::Unit {
                unit,
                what,
                plan,
                derived,
            } => write!(
                f,
                "unit {unit}: {what} {plan} in the plan, {derived} split again from the root"
            ),
            PlanFault::UnitCount { plan, derived } => write!(
                f,
                "the plan has {plan} units, the root split again gives {derived}"
            ),
            PlanFault::More(count) => write!(f, "and {count} more units differ"),
        }
    }
}

fn root_of(plan: &PlanFolder) -> Result<Position, WorkError> {
    Position::from_fen(&plan.manifest.fen).map_err(|e| {
        WorkError::malformed(
            &plan.dir.join(MANIFEST_FILE),
            format!("the root {:?}: {e}", plan.manifest.fen),
        )
    })
}

/// The faults of `units` (every unit of `plan`, by id) that the root's moves and perft to the
/// split ply show.
pub fn check_paths(plan: &PlanFolder, units: &[Unit]) -> Result<Vec<PlanFault>, WorkError> {
    let manifest = &plan.manifest;
    let root = root_of(plan)?;
    let mut faults = Vec::new();
    let below_root = divide(&root, manifest.split_ply);
    let legal: Vec<String> = below_root.iter().map(|(m, _)| m.to_string()).collect();
    if manifest.root_moves != legal {
        faults.push(PlanFault::RootMoves {
            listed: manifest.root_moves.clone(),
            legal: legal.clone(),
        });
    }
    let perft: u128 = below_root.iter().map(|&(_, paths)| paths).sum();
    if manifest.paths != perft.to_string() {
        faults.push(PlanFault::Paths {
            listed: manifest.paths.clone(),
            perft,
        });
    }
    let expected_depth = manifest.depth - manifest.split_ply;
    let mut sums: BTreeMap<&str, u128> = legal.iter().map(|m| (m.as_str(), 0)).collect();
    for unit in units {
        if unit.depth != expected_depth {
            faults.push(PlanFault::UnitDepth {
                unit: unit.id,
                depth: unit.depth,
                expected: expected_depth,
            });
        }
        for (mv, paths) in &unit.roots {
            match sums.get_mut(mv.as_str()) {
                // Saturating: a sum past 2^128 is wrong however it is told.
                Some(sum) => *sum = sum.saturating_add(*paths),
                None => faults.push(PlanFault::UnitRootMove {
                    unit: unit.id,
                    mv: mv.clone(),
                }),
            }
        }
    }
    for (mv, perft) in &below_root {
        let mv = mv.to_string();
        let units = sums[mv.as_str()];
        if units != *perft {
            faults.push(PlanFault::RootMovePaths {
                mv,
                units,
                perft: *perft,
            });
        }
    }
    Ok(faults)
}

/// Where and with how much memory [`rederive`] splits the root again.
#[derive(Clone, Debug)]
pub struct Rederivation {
    pub memory_bytes: usize,
    pub scratch_parent: PathBuf,
    /// Polled while splitting: once it says so, the split stops.
    pub interrupted: fn() -> bool,
}

/// The units in which `units` (every unit of `plan`, by id) differ from those that splitting
/// the plan's root again at its split ply gives (the first few listed, then how many more).
pub fn rederive(
    plan: &PlanFolder,
    units: &[Unit],
    how: &Rederivation,
) -> Result<Vec<PlanFault>, WorkError> {
    let manifest = &plan.manifest;
    let root = root_of(plan)?;
    let root_moves: Vec<String> = legal_moves(&root).iter().map(|m| m.to_string()).collect();
    let options = ExpansionOptions {
        memory_bytes: how.memory_bytes,
        scratch_parent: how.scratch_parent.clone(),
        threads: available_threads(),
        state_dir: None,
        by_root_move: true,
        keep_last_ply: false,
        interrupted: how.interrupted,
    };
    let mut faults = Vec::new();
    let mut differing = 0u64;
    let mut derived = 0u64;
    let mut note = |fault: PlanFault| {
        differing += 1;
        if faults.len() < LISTED_FAULTS {
            faults.push(fault);
        }
    };
    expand(
        &root,
        manifest.split_ply,
        &options,
        |_| {},
        Some(&mut |position| {
            let id = derived;
            derived += 1;
            let Some(unit) = units.get(id as usize) else {
                return Ok(());
            };
            let fen = position
                .key
                .to_position()
                .map_err(|e| UniqueError::BadKey(e.to_string()))?
                .to_fen();
            let roots: Vec<(String, u128)> = position
                .roots
                .iter()
                .map(|&(index, paths)| (root_moves[usize::from(index)].clone(), paths))
                .collect();
            if unit.fen != fen {
                note(PlanFault::Unit {
                    unit: id,
                    what: "position",
                    plan: unit.fen.clone(),
                    derived: fen,
                });
            } else if unit.paths != position.paths() {
                note(PlanFault::Unit {
                    unit: id,
                    what: "paths",
                    plan: unit.paths.to_string(),
                    derived: position.paths().to_string(),
                });
            } else if unit.roots != roots {
                note(PlanFault::Unit {
                    unit: id,
                    what: "paths per root move",
                    plan: roots_text(&unit.roots),
                    derived: roots_text(&roots),
                });
            }
            Ok(())
        }),
    )?;
    if differing > LISTED_FAULTS as u64 {
        faults.push(PlanFault::More(differing - LISTED_FAULTS as u64));
    }
    if derived != units.len() as u64 {
        faults.push(PlanFault::UnitCount {
            plan: units.len() as u64,
            derived,
        });
    }
    Ok(faults)
}

fn roots_text(roots: &[(String, u128)]) -> String {
    let pairs: Vec<String> = roots.iter().map(|(mv, n)| format!("{mv}:{n}")).collect();
    pairs.join(",")
}
