//! The jobs of a plan's last submission, kept in `PLAN/slurm/jobs` so that a second
//! `work slurm` does not submit shards again while the first one's tasks still run or wait.

use super::queue::queue_state;
use crate::work::error::WorkError;
use crate::work::folder::sync_dir;
use std::path::{Path, PathBuf};

const JOBS_FILE: &str = "jobs";

fn jobs_file(slurm_dir: &Path) -> PathBuf {
    slurm_dir.join(JOBS_FILE)
}

/// Records `jobs` (the array, then the merge) as the last submission from `slurm_dir`.
pub fn record_submission(slurm_dir: &Path, jobs: &[u64]) -> Result<(), WorkError> {
    let path = jobs_file(slurm_dir);
    let aside = path.with_extension(std::process::id().to_string());
    let text: Vec<String> = jobs.iter().map(u64::to_string).collect();
    std::fs::write(&aside, format!("{}\n", text.join(" ")))
        .map_err(|e| WorkError::io(&aside, e))?;
    std::fs::rename(&aside, &path).map_err(|e| WorkError::io(&path, e))?;
    sync_dir(slurm_dir)
}

/// Fails while a job of the last submission from `slurm_dir` is still in Slurm's queue.
pub fn check_none_queued(slurm_dir: &Path) -> Result<(), WorkError> {
    let path = jobs_file(slurm_dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WorkError::io(&path, e)),
    };
    let jobs: Vec<u64> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| WorkError::malformed(&path, "not a list of job ids"))?;
    if jobs.is_empty() {
        return Ok(());
    }
    let queue = queue_state(&jobs)?;
    if queue.ended() {
        return Ok(());
    }
    let ids: Vec<String> = jobs.iter().map(u64::to_string).collect();
    Err(WorkError::StillQueued {
        jobs: ids.join(" "),
        running: queue.running,
        waiting: queue.pending + queue.other,
    })
}
