//! `vkperft work slurm`: a thin adapter over [`vkperft::work::SlurmJobs`]. The shards that are
//! not complete go to Slurm as one job array with a merge job after it; `--wait` watches the
//! queue until both have ended and merges from the journals. A plan of unique positions goes
//! the same way: its shards' units are partitions of its ply.

use super::error::{CliError, CliResult};
use super::output;
use super::work_args::SlurmArgs;
use super::work_merge::{merge_report, MergeOptions};
use super::work_unique;
use anyhow::anyhow;
use std::time::{Duration, Instant};
use vkperft::count::thousands;
use vkperft::work::{
    array_spec, check_none_queued, incomplete_shards, incomplete_unique_shards, is_unique_plan,
    queue_state, read_journals, read_unique_journals, record_submission, shell_quote, slurm_dir,
    submit, PlanFolder, SlurmJobs, SlurmResources, Status, UniquePlan, UniqueStatus, WorkError,
};

/// How long `--wait` bears with a queue it cannot read (a controller restarting) before it
/// gives up; the jobs go on either way.
const QUEUE_OUTAGE: Duration = Duration::from_secs(600);

fn shards_text(count: usize) -> String {
    match count {
        1 => "1 shard".to_string(),
        _ => format!("{count} shards"),
    }
}

/// A plan of either kind, as a submission sees it.
enum SubmittedPlan {
    Perft(PlanFolder),
    Unique(UniquePlan),
}

impl SubmittedPlan {
    fn open(dir: &std::path::Path) -> Result<SubmittedPlan, WorkError> {
        Ok(if is_unique_plan(dir) {
            SubmittedPlan::Unique(UniquePlan::open(dir)?)
        } else {
            SubmittedPlan::Perft(PlanFolder::open(dir)?)
        })
    }

    fn shard_count(&self) -> usize {
        match self {
            SubmittedPlan::Perft(plan) => plan.shard_count(),
            SubmittedPlan::Unique(plan) => plan.shard_count(),
        }
    }

    fn incomplete_shards(&self) -> Result<Vec<usize>, WorkError> {
        Ok(match self {
            SubmittedPlan::Perft(plan) => incomplete_shards(plan, &read_journals(plan)?),
            SubmittedPlan::Unique(plan) => {
                incomplete_unique_shards(plan, &read_unique_journals(plan)?)
            }
        })
    }

    /// Shards complete, shards, units done, units.
    fn progress(&self) -> Result<(usize, usize, u64, u64), WorkError> {
        Ok(match self {
            SubmittedPlan::Perft(plan) => {
                let status = Status::of(plan, &read_journals(plan)?)?;
                (
                    status.shards_complete,
                    status.shards,
                    status.done,
                    status.units,
                )
            }
            SubmittedPlan::Unique(plan) => {
                let status = UniqueStatus::of(plan, &read_unique_journals(plan)?);
                (
                    status.shards_complete,
                    status.shards,
                    status.done,
                    status.units,
                )
            }
        })
    }

    fn merge(&self) -> CliResult {
        match self {
            SubmittedPlan::Perft(plan) => merge_report(plan, &MergeOptions::default()),
            SubmittedPlan::Unique(plan) => {
                work_unique::merge_report(plan, &MergeOptions::default())
            }
        }
    }
}

pub fn run(args: &SlurmArgs) -> CliResult {
    args.run.check()?;
    let plan = SubmittedPlan::open(&args.plan)?;
    let dir = std::fs::canonicalize(&args.plan).map_err(|e| WorkError::io(&args.plan, e))?;
    let count = plan.shard_count();
    let shards = plan.incomplete_shards()?;
    if shards.is_empty() {
        output::write_stdout(&format!(
            "0 shards to submit: all {count} shards of {} are complete\n",
            dir.display()
        ))?;
        return if args.wait { plan.merge() } else { Ok(()) };
    }
    if !args.dry_run {
        check_none_queued(&slurm_dir(&dir))?;
    }
    output::write_stdout(&format!(
        "{} to submit: {} (of {count})\n",
        shards_text(shards.len()),
        array_spec(&shards)
    ))?;
    let program = std::env::current_exe()
        .map_err(|e| CliError::runtime(anyhow!("the path of this vkperft binary: {e}")))?;
    let jobs = SlurmJobs {
        plan: dir,
        program,
        shards,
        resources: SlurmResources {
            partition: args.partition.clone(),
            time_limit: args.time_limit.clone(),
            gpus_per_task: args.gpus_per_task,
            cpus_per_task: args.run.threads,
            max_parallel: args.max_parallel,
        },
        run_args: args.run.to_args(),
        divide: matches!(plan, SubmittedPlan::Perft(_)),
    };
    let dependency = |array: &str| format!("--dependency=afterany:{array}");
    if args.dry_run {
        // The commands as a shell would take them: a path with a space stays one word.
        let quoted = |path: &std::path::Path| shell_quote(&path.to_string_lossy());
        return output::write_stdout(&format!(
            "\n# {}\n{}\n# {}\n{}\n$ sbatch --parsable {}\n$ sbatch --parsable {} {}\n",
            jobs.shards_script_path().display(),
            jobs.shards_script()?,
            jobs.merge_script_path().display(),
            jobs.merge_script()?,
            quoted(&jobs.shards_script_path()),
            dependency("<array job>"),
            quoted(&jobs.merge_script_path()),
        ));
    }
    jobs.write_scripts()?;
    let array = submit(&jobs.shards_script_path(), &[])?;
    record_submission(&jobs.slurm_dir(), &[array])?;
    output::write_stdout(&format!(
        "Submitted array job {array} ({}): logs {}\n",
        jobs.shards_script_path().display(),
        jobs.task_log(array, jobs.shards[0]).display()
    ))?;
    let merge = submit(&jobs.merge_script_path(), &[dependency(&array.to_string())])
        .inspect_err(|_| {
            output::write_stderr(&format!(
                "array job {array} is submitted, without a merge after it: `vkperft work merge {}` once it has ended\n",
                jobs.plan.display()
            ));
        })?;
    record_submission(&jobs.slurm_dir(), &[array, merge])?;
    output::write_stdout(&format!(
        "Submitted merge job {merge} (after array job {array} ends): log {}\n",
        jobs.merge_log(merge).display()
    ))?;
    if !args.wait {
        return Ok(());
    }
    wait_for(
        &plan,
        &[array, merge],
        Duration::from_secs(args.poll_seconds),
    )?;
    output::write_stdout(&format!(
        "Jobs {array} and {merge} have ended; the merge job wrote {}\n",
        jobs.merge_log(merge).display()
    ))?;
    plan.merge()
}

/// Waits until every task of `jobs` has left the queue, saying on stderr how the plan
/// advances whenever that changes.
fn wait_for(plan: &SubmittedPlan, jobs: &[u64], poll: Duration) -> CliResult {
    let mut said = String::new();
    let mut unreadable_since: Option<Instant> = None;
    loop {
        match queue_state(jobs) {
            Ok(queue) if queue.ended() => return Ok(()),
            Ok(queue) => {
                unreadable_since = None;
                let (shards_complete, shards, done, units) = plan.progress()?;
                let line = format!(
                    "{shards_complete} of {shards} shards complete, {} of {} units; tasks {} running, {} waiting\n",
                    thousands(done.into()),
                    thousands(units.into()),
                    queue.running,
                    queue.pending + queue.other,
                );
                if line != said {
                    output::write_stderr(&line);
                    said = line;
                }
            }
            Err(error) => {
                let since = *unreadable_since.get_or_insert_with(Instant::now);
                if since.elapsed() > QUEUE_OUTAGE {
                    return Err(error.into());
                }
                output::write_stderr(&format!("warning: {error}; trying again\n"));
            }
        }
        std::thread::sleep(poll);
    }
}
