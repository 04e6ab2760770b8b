//! Arguments of `vkperft work ...` and `vkperft unique`.

use super::args::{BackendArg, PositionArgs, RunOptions, TtArg};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use vkperft::work::{parse_shard_range, parse_shard_variable, Requirement, WorkError};

/// Memory for deduplicating positions unless `--mem-mb` says otherwise.
pub(super) const DEFAULT_DEDUP_MB: u64 = 1024;
/// `unique`'s default budget: ply 8 of the start position in about a dozen partitions.
pub(super) const DEFAULT_UNIQUE_MB: u64 = 4096;

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
    /// Compute units of a plan and journal each result. A unit is skipped if it has an exact
    /// result, or a fast one with the same seed and a verifier at least as wide; otherwise it
    /// is computed again (a fast run with another seed is the independent computation).
    Run(WorkRunArgs),
    /// Submit the shards that are not complete to Slurm as a job array, and a merge job after
    /// it; with --wait, wait for both and print the total.
    Slurm(SlurmArgs),
    /// Units done, nodes so far, shards complete, rate and time left.
    Status(StatusArgs),
    /// The total (and divide) once every unit has a result, with its trust and risk; exit 6
    /// if it falls short of --require.
    Merge(MergeArgs),
    /// The same plan computed twice, unit by unit: exit 3 if any unit's counts differ.
    Compare(CompareArgs),
    /// Check a certificate of `work merge --certificate` against its plan folder and
    /// recompute a random sample of units with a fresh Zobrist seed: exit 3 on any difference.
    VerifyCertificate(VerifyCertificateArgs),
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth of the perft in plies (with --unique: the ply whose unique positions are counted).
    #[arg(long)]
    pub depth: u32,
    /// Ply whose unique positions become the units (1 to depth - 1).
    #[arg(long, required_unless_present = "unique", conflicts_with = "unique")]
    pub split_ply: Option<u32>,
    /// A plan of unique positions: its units are the partitions of ply --depth; the plies
    /// before are counted here and the last of them kept in the plan folder.
    #[arg(long)]
    pub unique: bool,
    /// With --unique: at least this many partitions (more where --mem-mb needs).
    #[arg(long, value_name = "N", requires = "unique",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub partitions: Option<u64>,
    /// Number of shard files (consecutive ranges of units).
    #[arg(long, default_value_t = 1)]
    pub shards: usize,
    /// The plan folder to create (absent or empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Memory for deduplicating positions in MiB (default 1024; with --unique 4096, also the
    /// budget of each unit's set and buffers).
    #[arg(long)]
    pub mem_mb: Option<u64>,
    /// Folder for the sorted runs (default: the plan folder).
    #[arg(long, conflicts_with = "unique")]
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

impl WorkRunArgs {
    /// The shards chosen of a plan of `count` shards.
    pub fn chosen_shards(&self, count: usize) -> Result<Vec<usize>, WorkError> {
        Ok(match (self.shard, &self.shards, &self.shard_from_env) {
            (Some(shard), _, _) => parse_shard_range(&shard.to_string(), count)?,
            (None, Some(range), _) => parse_shard_range(range, count)?,
            (None, None, Some(var)) => {
                let value = std::env::var(var).ok();
                vec![parse_shard_variable(var, value.as_deref(), count)?]
            }
            (None, None, None) => (0..count).collect(),
        })
    }
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

/// The trust `work merge --require` demands of every unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequirementArg(pub Requirement);

impl ValueEnum for RequirementArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            RequirementArg(Requirement::Exact),
            RequirementArg(Requirement::Independent),
            RequirementArg(Requirement::Any),
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = match self.0 {
            Requirement::Exact => {
                "every unit recomputed by verify-certificate in --tt off, verified or certify (a record's declared mode is not enough)"
            }
            Requirement::Independent => {
                "every unit computed with two Zobrist seeds whose results agree, or recomputed by verify-certificate"
            }
            Requirement::Any => "any result",
        };
        Some(clap::builder::PossibleValue::new(self.0.name()).help(help))
    }
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
    /// The trust every unit must reach; exit 6, listing the units, if some fall short.
    #[arg(long, value_enum, default_value = "any")]
    pub require: RequirementArg,
    /// Merge although some journal lines are damaged (their units count as missing).
    #[arg(long)]
    pub ignore_damaged: bool,
    /// Write a certificate of the total to FILE (JSON): see `work verify-certificate`.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyCertificateArgs {
    /// The certificate (JSON) written by `work merge --certificate`.
    pub certificate: PathBuf,
    /// The plan folder (default: the folder the certificate names).
    #[arg(long)]
    pub plan: Option<PathBuf>,
    /// Percentage of the units to recompute (at least one unit).
    #[arg(long, value_name = "P", default_value_t = 1.0)]
    pub sample: f64,
    /// Seed of the sample and of the fresh Zobrist seed (default: drawn from the clock; the
    /// seed used is printed).
    #[arg(long, value_name = "S", value_parser = sample_seed)]
    pub seed: Option<u64>,
    /// Backend of the recomputation.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendArg,
    /// Vulkan device index from `vkperft devices`.
    #[arg(long)]
    pub device: Option<usize>,
    /// CPU threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Transposition table mode of the recomputation.
    #[arg(long, value_enum, default_value = "fast")]
    pub tt: TtArg,
    /// Transposition table size in MiB.
    #[arg(long)]
    pub tt_mb: Option<u64>,
    /// The trust every unit must reach, from the journals' agreement and this recomputation;
    /// exit 6 if some fall short (`exact`: `--sample 100` in an exact `--tt`).
    #[arg(long, value_enum, default_value = "any")]
    pub require: RequirementArg,
    /// Memory for splitting the root again in MiB; beyond it, sorted runs go to disk.
    #[arg(long, default_value_t = DEFAULT_DEDUP_MB)]
    pub mem_mb: u64,
    /// Folder for the sorted runs of the split (default: the system's temporary folder).
    #[arg(long)]
    pub tmp_dir: Option<PathBuf>,
}

fn sample_seed(text: &str) -> Result<u64, String> {
    vkperft::chess::parse_seed(text).map_err(|err| err.to_string())
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
    /// Memory in MiB for the positions of a partition and the buffers: the bound of the
    /// process's resident memory. A ply that does not fit is done in more partitions, each a
    /// pass over the ply before. A budget below the process, its buffers and an 8 MiB set is
    /// raised to that, with a note.
    #[arg(long, default_value_t = DEFAULT_UNIQUE_MB)]
    pub mem_mb: u64,
    /// Threads expanding positions (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Folder for the plies in between (default: the system's temporary folder); a folder of
    /// its own in it is removed at the end.
    #[arg(long)]
    pub tmp_dir: Option<PathBuf>,
    /// Keep the plies in this folder instead: a run stopped at any point (even by SIGKILL)
    /// resumes from it when started again with the same folder and root.
    #[arg(long, conflicts_with = "tmp_dir")]
    pub state_dir: Option<PathBuf>,
}
