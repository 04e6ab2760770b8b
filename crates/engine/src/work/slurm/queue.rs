//! Slurm's own commands, run as a cluster user would: `sbatch` submits, `squeue` watches.
//! Whatever cluster `SLURM_CONF` (or the node's configuration) names is the one used.

use crate::work::error::WorkError;
use std::path::Path;
use std::process::Command;

/// Runs `program` with `args` and returns what it printed; a program that is missing or
/// fails is an error that shows its stderr.
fn run(program: &str, args: &[String]) -> Result<String, WorkError> {
    let command = || format!("{program} {}", args.join(" "));
    let output = Command::new(program).args(args).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            WorkError::SchedulerMissing {
                program: program.to_string(),
            }
        } else {
            WorkError::SchedulerFailed {
                command: command(),
                status: "did not start".into(),
                stderr: e.to_string(),
            }
        }
    })?;
    if !output.status.success() {
        return Err(WorkError::SchedulerFailed {
            command: command(),
            status: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Submits the batch script `script`, with `options` given to sbatch before it, and returns
/// the job's id.
pub fn submit(script: &Path, options: &[String]) -> Result<u64, WorkError> {
    let mut args = vec!["--parsable".to_string()];
    args.extend(options.iter().cloned());
    args.push(script.to_string_lossy().into_owned());
    let printed = run("sbatch", &args)?;
    // `--parsable` prints `ID` or `ID;CLUSTER`.
    let id = printed.trim().split(';').next().unwrap_or_default();
    id.parse().map_err(|_| WorkError::SchedulerOutput {
        command: format!("sbatch {}", args.join(" ")),
        output: printed.trim().to_string(),
    })
}

/// The tasks of some jobs that Slurm still holds: waiting, running, or ending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueState {
    pub pending: usize,
    pub running: usize,
    /// Completing, suspended, requeued, ...
    pub other: usize,
}

impl QueueState {
    /// Every task of the jobs has ended, whichever way.
    pub fn ended(&self) -> bool {
        self.pending + self.running + self.other == 0
    }

    fn count(printed: &str) -> QueueState {
        let mut state = QueueState::default();
        for line in printed.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line {
                "PENDING" => state.pending += 1,
                "RUNNING" => state.running += 1,
                _ => state.other += 1,
            }
        }
        state
    }
}

/// What is left in the queue of the jobs `jobs`, array tasks counted one by one. A job that
/// has ended leaves squeue's default listing; one ended long ago is unknown to it.
pub fn queue_state(jobs: &[u64]) -> Result<QueueState, WorkError> {
    let ids: Vec<String> = jobs.iter().map(u64::to_string).collect();
    let args = [
        "--noheader".to_string(),
        "--array".to_string(),
        format!("--jobs={}", ids.join(",")),
        "--format=%T".to_string(),
    ];
    match run("squeue", &args) {
        Ok(printed) => Ok(QueueState::count(&printed)),
        Err(WorkError::SchedulerFailed { stderr, .. }) if stderr.contains("Invalid job id") => {
            Ok(QueueState::default())
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_states_count_tasks() {
        let state = QueueState::count("RUNNING\nPENDING\nPENDING\nCOMPLETING\n\n");
        assert_eq!(
            state,
            QueueState {
                pending: 2,
                running: 1,
                other: 1
            }
        );
        assert!(!state.ended());
        assert!(QueueState::count("").ended());
    }
}
