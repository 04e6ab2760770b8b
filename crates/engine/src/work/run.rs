//! `vkperft work run`: the units of some shards computed one after another, each result
//! journaled before the next unit starts. A unit is skipped when one of its results spares
//! the run ([`Method::spares`]): an exact result, or a fast one of the same seed and a verifier
//! at least as wide. Otherwise it is computed again and both results stay in the journal.

use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::{read_journals, JournalWriter};
use super::record::{JournalRecord, TableStats};
use super::trust::Method;
use super::unit::Unit;
use crate::backend::Device;
use crate::chess::MoveStats;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How a unit was computed (everything of its journal line but the plan, the unit and its
/// paths).
#[derive(Clone, Debug, PartialEq)]
pub struct UnitOutcome {
    pub nodes: u128,
    pub method: Method,
    pub device: Device,
    pub table: TableStats,
    pub seconds: f64,
    /// The unit's move-type statistics, when it was run with `--stats`.
    pub move_stats: Option<MoveStats>,
}

/// Where a run stands, for a progress display.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunProgress {
    /// Units of the chosen shards.
    pub units: u64,
    /// Units of the chosen shards with a result (journaled before or by this run).
    pub done: u64,
    /// Subtree nodes this run has counted.
    pub nodes: u128,
    pub elapsed: Duration,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    pub computed: u64,
    /// Units computed although they had results: weaker than asked, or of another seed.
    pub recomputed: u64,
    /// Units whose results in the journal spare this run.
    pub skipped: u64,
    /// This process's journal (none when nothing was left to compute).
    pub journal: Option<std::path::PathBuf>,
}

/// Computes every unit of `shards` that no journaled result spares from a run computing
/// `asked`, with `compute`, which gets the unit and the progress before it, and journals each
/// result. Stops at the first error of `compute` or of the journal; what was journaled stays.
pub fn run_units<E: From<WorkError>>(
    plan: &PlanFolder,
    shards: &[usize],
    asked: &Method,
    mut compute: impl FnMut(&Unit, &RunProgress) -> Result<UnitOutcome, E>,
) -> Result<RunReport, E> {
    let mut journaled: HashMap<u64, bool> = HashMap::new();
    for record in read_journals(plan)?.records {
        *journaled.entry(record.unit).or_default() |= record.method.spares(asked);
    }
    let done: HashSet<u64> = journaled
        .iter()
        .filter(|&(_, &spared)| spared)
        .map(|(&unit, _)| unit)
        .collect();
    // Each shard is checked whole before any of its units runs.
    let mut shard_units = Vec::with_capacity(shards.len());
    for &shard in shards {
        shard_units.push(plan.shard_units(shard)?);
    }
    let units: u64 = shards
        .iter()
        .map(|&s| plan.unit_ids(s))
        .map(|ids| ids.end - ids.start)
        .sum();
    let start = Instant::now();
    let mut progress = RunProgress {
        units,
        done: shards
            .iter()
            .flat_map(|&s| plan.unit_ids(s))
            .filter(|id| done.contains(id))
            .count() as u64,
        ..RunProgress::default()
    };
    let mut report = RunReport {
        skipped: progress.done,
        ..RunReport::default()
    };
    if progress.done == units {
        return Ok(report);
    }
    // Opened and tried before the first unit: a read-only or full disk costs no computation.
    let mut journal = JournalWriter::create(&plan.dir)?;
    report.journal = Some(journal.path().to_path_buf());
    journal.probe()?;
    for unit in shard_units.into_iter().flatten() {
        let unit = unit?;
        if done.contains(&unit.id) {
            continue;
        }
        progress.elapsed = start.elapsed();
        let outcome = compute(&unit, &progress)?;
        journal.append(&JournalRecord {
            plan: plan.seal,
            unit: unit.id,
            nodes: outcome.nodes,
            paths: unit.paths,
            method: outcome.method,
            device: outcome.device,
            table: outcome.table,
            seconds: outcome.seconds,
            move_stats: outcome.move_stats,
        })?;
        report.computed += 1;
        report.recomputed += u64::from(journaled.contains_key(&unit.id));
        progress.done += 1;
        progress.nodes = progress
            .nodes
            .checked_add(outcome.nodes)
            .ok_or(WorkError::Overflow {
                unit: unit.id,
                what: "the nodes counted by this run",
            })?;
    }
    Ok(report)
}

/// The shards `A..B` (B excluded), `A..=B` or `A` of a plan of `count` shards.
pub fn parse_shard_range(text: &str, count: usize) -> Result<Vec<usize>, WorkError> {
    let bad = || WorkError::ShardRange(text.to_string());
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let range = if let Some((a, b)) = text.split_once("..=") {
        number(a)?..number(b)?.checked_add(1).ok_or_else(bad)?
    } else if let Some((a, b)) = text.split_once("..") {
        number(a)?..number(b)?
    } else {
        let shard = number(text)?;
        shard..shard + 1
    };
    if range.is_empty() {
        return Err(bad());
    }
    if range.end > count {
        return Err(WorkError::NoSuchShard {
            shard: range.end - 1,
            shards: count,
        });
    }
    Ok(range.collect())
}

/// The shard a scheduler gave this task in the environment variable `var` (its `value`, if
/// set), for a plan of `count` shards: a plain decimal index, as Slurm's
/// `SLURM_ARRAY_TASK_ID` and Kubernetes' `JOB_COMPLETION_INDEX` are.
pub fn parse_shard_variable(
    var: &str,
    value: Option<&str>,
    count: usize,
) -> Result<usize, WorkError> {
    let value = value.ok_or_else(|| WorkError::ShardVariableUnset {
        var: var.to_string(),
    })?;
    let shard = value
        .parse::<usize>()
        .map_err(|_| WorkError::ShardVariable {
            var: var.to_string(),
            value: value.to_string(),
        })?;
    if shard >= count {
        return Err(WorkError::NoSuchShard {
            shard,
            shards: count,
        });
    }
    Ok(shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::work::split::{split, SplitRequest};

    /// A journal that cannot be written (its folder a link into /proc, where no file can be
    /// created) fails the run before its first unit is computed.
    #[test]
    fn an_unwritable_journal_fails_before_the_first_unit() {
        let dir = std::env::temp_dir().join(format!("vkperft-run-probe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.join("plan");
        split(&SplitRequest {
            root: Position::startpos(),
            depth: 3,
            split_ply: 1,
            shards: 1,
            out: out.clone(),
            memory_bytes: 1 << 20,
            scratch_parent: None,
            interrupted: crate::unique::never_interrupted,
        })
        .expect("a plan");
        std::os::unix::fs::symlink("/proc/self", out.join("journal")).expect("a link");
        let plan = PlanFolder::open(&out).expect("the plan");
        let asked = Method {
            mode: crate::tt::TtMode::Off,
            verifier_bits: crate::tt::DEFAULT_VERIFIER_BITS,
            seed: 0,
        };
        let mut computed = 0;
        let result = run_units(&plan, &[0], &asked, |_, _| {
            computed += 1;
            Err(WorkError::NoShards)
        });
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(result, Err(WorkError::Io { .. })), "{result:?}");
        assert_eq!(computed, 0);
    }

    #[test]
    fn shard_variables() {
        let var = "SLURM_ARRAY_TASK_ID";
        assert_eq!(parse_shard_variable(var, Some("7"), 8).ok(), Some(7));
        assert!(matches!(
            parse_shard_variable(var, Some("8"), 8),
            Err(WorkError::NoSuchShard { shard: 8, .. })
        ));
        assert!(matches!(
            parse_shard_variable(var, None, 8),
            Err(WorkError::ShardVariableUnset { .. })
        ));
        for bad in ["", "-1", "1..3", " 2", "0x1"] {
            assert!(
                matches!(
                    parse_shard_variable(var, Some(bad), 8),
                    Err(WorkError::ShardVariable { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn shard_ranges() {
        assert_eq!(parse_shard_range("2..5", 8).ok(), Some(vec![2, 3, 4]));
        assert_eq!(parse_shard_range("2..=5", 8).ok(), Some(vec![2, 3, 4, 5]));
        assert_eq!(parse_shard_range("7", 8).ok(), Some(vec![7]));
        assert!(matches!(
            parse_shard_range("8", 8),
            Err(WorkError::NoSuchShard {
                shard: 8,
                shards: 8
            })
        ));
        for bad in ["5..2", "a..b", "", "3..3", "-1"] {
            assert!(
                matches!(parse_shard_range(bad, 8), Err(WorkError::ShardRange(_))),
                "{bad}"
            );
        }
    }
}
