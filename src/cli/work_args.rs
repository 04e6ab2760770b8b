//! Arguments of `vkperft work ...` and `vkperft unique`.

use super::args::{PositionArgs, RunOptions};
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// Memory for deduplicating positions unless `--mem-mb` says otherwise.
const DEFAULT_DEDUP_MB: u64 = 1024;

#[derive(Args, Debug)]
pub struct WorkArgs {
    #[command(subcommand)]
    pub command: WorkCommand,
}

#[derive(Subcommand, Debug)]
pub enum WorkCommand {
    /// Expand the tree to the split ply, merge transpositions, and write a plan folder of
    /// units (unique positions with their paths from the root).
    Split(SplitArgs),
    /// Compute units of a plan and journal each result; units already journaled are skipped.
    Run(WorkRunArgs),
    /// Submit the shards that are not complete to Slurm as a job array, and a merge job after
    /// it; with --wait, wait for both and print the total.
    Slurm(SlurmArgs),
    /// Units done, nodes so far, shards complete, rate and time left.
    Status(StatusArgs),
    /// The exact total (and divide), once every unit has a result.
    Merge(MergeArgs),
    /// The same plan computed twice, unit by unit: exit 3 if any unit's counts differ.
    Compare(CompareArgs),
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth of the perft in plies.
    #[arg(long)]
    pub depth: u32,
    /// Ply whose unique positions become the units (1 to depth - 1).
    #[arg(long)]
    pub split_ply: u32,
    /// Number of shard files (consecutive ranges of units).
    #[arg(long, default_value_t = 1)]
    pub shards: usize,
    /// The plan folder to create (absent or empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Memory for deduplicating positions in MiB; beyond it, sorted runs go to disk.
    #[arg(long, default_value_t = DEFAULT_DEDUP_MB)]
    pub mem_mb: u64,
    /// Folder for the sorted runs (default: the plan folder).
    #[arg(long)]
    pub tmp_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct WorkRunArgs {
    /// The plan folder.
    pub plan: PathBuf,
    /// Only this shard.
    #[arg(long, conflicts_with_all = ["shards", "all", "shard_from_env"])]
    pub shard: Option<usize>,
    /// Only these shards: `A..B` (B excluded) or `A..=B`.
    #[arg(long, conflicts_with_all = ["all", "shard_from_env"])]
    pub shards: Option<String>,
    /// Only the shard whose index a scheduler puts in this environment variable
    /// (`SLURM_ARRAY_TASK_ID`, Kubernetes' `JOB_COMPLETION_INDEX`).
    #[arg(long, value_name = "VAR", conflicts_with = "all")]
    pub shard_from_env: Option<String>,
    /// Every shard (the default).
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub run: RunOptions,
}

#[derive(Args, Debug)]
pub struct SlurmArgs {
    /// The plan folder, on a file system that the cluster's nodes share.
    pub plan: PathBuf,
    /// Partition of both jobs (default: the cluster's default partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// At most this many shard tasks at once.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_parallel: Option<u32>,
    /// Time limit of each task and of the merge, in Slurm's formats (`90` minutes,
    /// `2:00:00`, `1-12:00:00`).
    #[arg(long, value_name = "TIME")]
    pub time_limit: Option<String>,
    /// GPUs each shard task gets.
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u32).range(1..))]
    pub gpus_per_task: Option<u32>,
    /// Wait until both jobs have ended, then merge: exit 0 only with the total.
    #[arg(long)]
    pub wait: bool,
    /// Seconds between two looks at the queue while waiting.
    #[arg(long, value_name = "S", default_value_t = 15, requires = "wait",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub poll_seconds: u64,
    /// Print the batch scripts and the sbatch commands; write and submit nothing.
    #[arg(long, conflicts_with = "wait")]
    pub dry_run: bool,
    /// How each task runs its shard (as `work run`); --threads also reserves that many CPUs
    /// per task.
    #[command(flatten)]
    pub run: RunOptions,
}

#[derive(Args, Debug)]
pub struct StatusArgs {
    /// The plan folder.
    pub plan: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The plan folder.
    pub plan: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the count of every root move (Stockfish's format).
    #[arg(long)]
    pub divide: bool,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// One computation of the plan.
    pub plan_a: PathBuf,
    /// Another computation of the same plan.
    pub plan_b: PathBuf,
}

#[derive(Args, Debug)]
pub struct UniqueArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Count up to this ply.
    #[arg(long)]
    pub depth: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Memory for deduplicating positions in MiB; beyond it, sorted runs go to disk.
    #[arg(long, default_value_t = DEFAULT_DEDUP_MB)]
    pub mem_mb: u64,
    /// Folder for sorted runs and the plies in between (default: the system's temporary
    /// folder).
    #[arg(long)]
    pub tmp_dir: Option<PathBuf>,
}
