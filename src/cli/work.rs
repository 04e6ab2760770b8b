//! `vkperft work split|run|status|merge|compare`: thin adapters over [`vkperft::work`]
//! (`work slurm` is in `work_slurm.rs`).

use super::error::{CliError, CliResult};
use super::output;
use super::perft::{start_position, Runner};
use super::progress::ProgressDisplay;
use super::work_args::{
    CompareArgs, MergeArgs, SplitArgs, StatusArgs, WorkArgs, WorkCommand, WorkRunArgs,
};
use super::work_merge::merge_report;
use super::work_slurm;
use anyhow::anyhow;
use std::time::Instant;
use vkperft::chess::Position;
use vkperft::count::thousands;
use vkperft::engine::event::nodes_per_second;
use vkperft::engine::{mib_to_bytes, Progress};
use vkperft::tt::{TtMode, DEFAULT_VERIFIER_BITS};
use vkperft::work::{
    compare, parse_shard_range, parse_shard_variable, read_journals, run_units, split, PlanFolder,
    SplitRequest, Status, UnitOutcome, WorkError,
};

impl From<WorkError> for CliError {
    fn from(error: WorkError) -> CliError {
        if error.is_input() {
            CliError::input(error)
        } else {
            CliError::runtime(error)
        }
    }
}

pub fn run(args: &WorkArgs) -> CliResult {
    match &args.command {
        WorkCommand::Split(args) => run_split(args),
        WorkCommand::Run(args) => run_units_of(args),
        WorkCommand::Slurm(args) => work_slurm::run(args),
        WorkCommand::Status(args) => run_status(args),
        WorkCommand::Merge(args) => run_merge(args),
        WorkCommand::Compare(args) => run_compare(args),
    }
}

fn run_split(args: &SplitArgs) -> CliResult {
    let root = start_position(&args.position)?;
    let manifest = split(&SplitRequest {
        root,
        depth: args.depth,
        split_ply: args.split_ply,
        shards: args.shards,
        out: args.out.clone(),
        memory_bytes: mib_to_bytes(args.mem_mb),
        scratch_parent: args.tmp_dir.clone(),
    })?;
    output::write_stdout(&format!(
        "Plan {}: {} units ({} paths at ply {}), depth {} left below each, {} shard(s)\n",
        args.out.display(),
        thousands(manifest.units.into()),
        manifest.paths,
        manifest.split_ply,
        manifest.depth - manifest.split_ply,
        manifest.shards.len()
    ))
}

/// The table mode as journals record it: `/K` marks a fast verifier narrowed to K bits.
fn mode_text(mode: TtMode, verifier_bits: u32) -> String {
    let narrowed =
        matches!(mode, TtMode::Fast | TtMode::Certify) && verifier_bits != DEFAULT_VERIFIER_BITS;
    if narrowed {
        format!("{mode}/{verifier_bits}")
    } else {
        mode.to_string()
    }
}

fn run_units_of(args: &WorkRunArgs) -> CliResult {
    let plan = PlanFolder::open(&args.plan)?;
    let count = plan.shard_count();
    let shards = match (args.shard, &args.shards, &args.shard_from_env) {
        (Some(shard), _, _) => parse_shard_range(&shard.to_string(), count)?,
        (None, Some(range), _) => parse_shard_range(range, count)?,
        (None, None, Some(var)) => {
            let value = std::env::var(var).ok();
            vec![parse_shard_variable(var, value.as_deref(), count)?]
        }
        (None, None, None) => (0..count).collect(),
    };
    let mut runner = Runner::new();
    let mut display = ProgressDisplay::new(true);
    let start = Instant::now();
    let mut journaled_here = 0;
    let outcome = run_units(&plan, &shards, |unit, before| {
        journaled_here = before.done;
        let position = Position::from_fen(&unit.fen)
            .map_err(|e| CliError::input(anyhow!("unit {}: {e}", unit.id)))?;
        let spec = args.run.spec(position, unit.depth);
        let mut show = |unit_nodes: u128| {
            let nodes = before.nodes + unit_nodes;
            let elapsed = start.elapsed();
            display.update(&Progress {
                nodes,
                elapsed,
                nps: nodes_per_second(nodes, elapsed),
                tasks_done: before.done as usize,
                tasks_total: before.units as usize,
                tt: None,
                work: None,
            });
        };
        show(0);
        let result = runner.run_observed(&spec, true, &mut |p| show(p.nodes))?;
        Ok::<_, CliError>(UnitOutcome {
            nodes: result.counts.nodes,
            mode: mode_text(spec.tt_mode, spec.verifier_bits),
            seed: result.zobrist_seed,
            backend: result.backend.to_string(),
            device: result.device,
            seconds: result.elapsed.as_secs_f64(),
        })
    });
    display.finish();
    let report = match outcome {
        Ok(report) => report,
        Err(error) => {
            output::write_stderr(&format!(
                "{journaled_here} units of the chosen shards are journaled; `vkperft work run` again goes on from there\n"
            ));
            return Err(error);
        }
    };
    let journal = report.journal.map_or(String::new(), |path| {
        format!(" (journal {})", path.display())
    });
    output::write_stdout(&format!(
        "{} units computed, {} already journaled, in {:.1} s{journal}\n",
        report.computed,
        report.skipped,
        start.elapsed().as_secs_f64()
    ))
}

fn run_status(args: &StatusArgs) -> CliResult {
    let plan = PlanFolder::open(&args.plan)?;
    let status = Status::of(&plan, &read_journals(&plan)?);
    if args.json {
        output::write_stdout(&format!("{}\n", status.to_json()))
    } else {
        output::write_stdout(&status.to_text())
    }
}

fn run_merge(args: &MergeArgs) -> CliResult {
    merge_report(&PlanFolder::open(&args.plan)?, args.json, args.divide)
}

fn run_compare(args: &CompareArgs) -> CliResult {
    let a = PlanFolder::open(&args.plan_a)?;
    let b = PlanFolder::open(&args.plan_b)?;
    let comparison = compare(&a, &read_journals(&a)?, &b, &read_journals(&b)?)?;
    let mut text = format!("{} units compared", comparison.compared);
    if comparison.missing_in_a + comparison.missing_in_b > 0 {
        text += &format!(
            "; without a result: {} in A, {} in B",
            comparison.missing_in_a, comparison.missing_in_b
        );
    }
    text += "\n";
    let counts = |c: &[u128]| {
        c.iter()
            .map(u128::to_string)
            .collect::<Vec<_>>()
            .join(" vs ")
    };
    for (unit, in_a, in_b) in &comparison.differing {
        text += &format!("unit {unit}: A {}, B {}\n", counts(in_a), counts(in_b));
    }
    output::write_stdout(&text)?;
    if !comparison.differing.is_empty() {
        return Err(CliError::Mismatch(anyhow!(
            "{} units differ between {} and {}",
            comparison.differing.len(),
            a.dir.display(),
            b.dir.display()
        )));
    }
    if comparison.missing_in_a + comparison.missing_in_b > 0 {
        return Err(CliError::Incomplete(anyhow!(
            "the units compared agree, but some have no result yet"
        )));
    }
    output::write_stdout("all units agree\n")
}
