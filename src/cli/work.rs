//! `vkperft work split|run|status|merge|compare|verify-certificate`: thin adapters over
//! [`vkperft::work`] (`work slurm` is in `work_slurm.rs`).

use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::perft::{start_position, Runner};
use super::progress::ProgressDisplay;
use super::work_args::{
    CompareArgs, MergeArgs, SplitArgs, StatusArgs, VerifyCertificateArgs, WorkArgs, WorkCommand,
    WorkRunArgs, DEFAULT_DEDUP_MB,
};
use super::work_merge::{inconsistent_plan, merge_report, MergeOptions};
use super::work_slurm;
use super::work_unique;
use super::work_verify::{certificate_findings, miss_chances, recount_spec, sample_seed_of};
use anyhow::anyhow;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use vkperft::chess::{MoveStat, Position};
use vkperft::count::thousands;
use vkperft::engine::event::{nodes_per_second, PerftResult};
use vkperft::engine::{mib_to_bytes, JobSpec, Progress};
use vkperft::tt::DEFAULT_VERIFIER_BITS;
use vkperft::unique::UniqueError;
use vkperft::work::{
    check_certificate, compare, fresh_seed, is_unique_certificate, is_unique_plan, read_journals,
    rederive, run_units, sample_units, split, CertificateClaims, Method, PlanFolder, Rederivation,
    Requirement, SplitRequest, Status, TableStats, Trust, UniquePlan, UnitOutcome, WorkError,
};

impl From<WorkError> for CliError {
    fn from(error: WorkError) -> CliError {
        if let WorkError::Expansion(UniqueError::Interrupted) = error {
            return CliError::Interrupted {
                elapsed: None,
                nodes: None,
            };
        }
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
        WorkCommand::VerifyCertificate(args) => run_verify_certificate(args),
    }
}

fn run_split(args: &SplitArgs) -> CliResult {
    let root = start_position(&args.position)?;
    let Some(split_ply) = args.split_ply else {
        return work_unique::run_split(args, root);
    };
    let manifest = split(&SplitRequest {
        root,
        depth: args.depth,
        split_ply,
        shards: args.shards,
        out: args.out.clone(),
        memory_bytes: mib_to_bytes(args.mem_mb.unwrap_or(DEFAULT_DEDUP_MB)),
        scratch_parent: args.tmp_dir.clone(),
        interrupted: interrupt::requested,
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

/// What a journal records of `result`, computed as `method` asked. `work run` keeps the table
/// from one unit to the next, and its counters run on: the unit's statistics are those since
/// `previous`, the table's counters after the unit before (unless they went back: a new
/// table).
fn unit_outcome(
    result: &PerftResult,
    method: Method,
    previous: &mut Option<TableStats>,
) -> UnitOutcome {
    let counters = result.tt.as_ref().map_or(TableStats::default(), |tt| {
        let total = &tt.total;
        // Depths that compared fewer bits than the table's: compact depth-2 slots.
        let compact_wrong_occupied_probes = tt
            .per_depth
            .iter()
            .filter(|depth| depth.verifier_bits < tt.verifier_bits)
            .map(|depth| depth.counts.wrong_occupied_probes)
            .sum();
        TableStats {
            probes: total.probes,
            wrong_occupied_probes: total.wrong_occupied_probes,
            compact_wrong_occupied_probes,
            false_hits: total.false_hits,
            payload_skips: total.payload_skips,
        }
    });
    let table = previous
        .and_then(|earlier| counters.since(&earlier))
        .unwrap_or(counters);
    *previous = Some(counters);
    UnitOutcome {
        nodes: result.counts.nodes,
        method: Method {
            seed: result.zobrist_seed,
            ..method
        },
        device: result.device.clone(),
        table,
        seconds: result.elapsed.as_secs_f64(),
        move_stats: result.move_stats.then_some(result.counts.stats),
    }
}

fn run_units_of(args: &WorkRunArgs) -> CliResult {
    args.run.check()?;
    if is_unique_plan(&args.plan) {
        return work_unique::run_units(args);
    }
    let plan = PlanFolder::open(&args.plan)?;
    let shards = args.chosen_shards(plan.shard_count())?;
    let asked = Method {
        mode: args.run.tt.0,
        verifier_bits: args.run.verifier_bits,
        seed: args.run.zobrist_seed,
    };
    let mut runner = Runner::new();
    let mut display = ProgressDisplay::new(true);
    let start = Instant::now();
    let mut journaled_here = 0;
    let mut table_counters = None;
    let outcome = run_units(&plan, &shards, &asked, |unit, before| {
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
                expected_table_stores: None,
            });
        };
        show(0);
        let result = runner.run_observed(&spec, true, &mut |p| show(p.nodes))?;
        Ok::<_, CliError>(unit_outcome(&result, asked, &mut table_counters))
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
    let again = match (report.recomputed, asked.is_exact()) {
        (0, _) => String::new(),
        (units, true) => format!(" ({units} again: their results were not exact)"),
        (units, false) => format!(
            " ({units} again: their results were neither exact nor fast with seed {:#x} at {} bits or more)",
            asked.seed, asked.verifier_bits
        ),
    };
    output::write_stdout(&format!(
        "{} units computed{again}, {} already journaled, in {:.1} s{journal}\n",
        report.computed,
        report.skipped,
        start.elapsed().as_secs_f64()
    ))
}

fn run_status(args: &StatusArgs) -> CliResult {
    if is_unique_plan(&args.plan) {
        return work_unique::run_status(args);
    }
    let plan = PlanFolder::open(&args.plan)?;
    let status = Status::of(&plan, &read_journals(&plan)?)?;
    if args.json {
        output::write_stdout(&format!("{}\n", status.to_json()))
    } else {
        output::write_stdout(&status.to_text())
    }
}

fn run_merge(args: &MergeArgs) -> CliResult {
    if is_unique_plan(&args.plan) {
        return work_unique::merge_report(&UniquePlan::open(&args.plan)?, &merge_options(args));
    }
    merge_report(&PlanFolder::open(&args.plan)?, &merge_options(args))
}

fn merge_options(args: &MergeArgs) -> MergeOptions {
    MergeOptions {
        json: args.json,
        divide: args.divide,
        require: args.require.0,
        ignore_damaged: args.ignore_damaged,
        certificate: args.certificate.clone(),
    }
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

/// Checks the certificate against its plan, splits the root again and compares the plan's
/// units, then recomputes a sample of units with a fresh Zobrist seed: exit 3 if anything
/// differs, 6 if the trust established falls short of `--require`.
fn run_verify_certificate(args: &VerifyCertificateArgs) -> CliResult {
    if is_unique_certificate(&args.certificate) {
        return work_unique::verify_certificate(args);
    }
    let claims = CertificateClaims::read(&args.certificate)?;
    let dir = args
        .plan
        .clone()
        .unwrap_or_else(|| PathBuf::from(&claims.plan.folder));
    let plan = PlanFolder::open(&dir)?;
    let units = plan.read_units()?;
    let check = check_certificate(&plan, &units, &claims)?;
    certificate_findings(&check.unlisted, "is not read", &check.failures)?;
    let faults = rederive(
        &plan,
        &units,
        &Rederivation {
            memory_bytes: mib_to_bytes(args.mem_mb),
            scratch_parent: args.tmp_dir.clone().unwrap_or_else(std::env::temp_dir),
            interrupted: interrupt::requested,
        },
    )?;
    if !faults.is_empty() {
        return Err(inconsistent_plan(&faults));
    }
    output::write_stdout(&format!(
        "Certificate holds: seal {}, {} journal files, total {} = the sum of the units and of the divide, trust {}\n\
         Plan holds: its {} units are the unique positions at ply {} of the root, with their paths per root move\n",
        plan.seal,
        claims.journals.len(),
        claims.total,
        claims.trust.level,
        plan.manifest.units,
        plan.manifest.split_ply
    ))?;
    let seed = sample_seed_of(args);
    let sample = sample_units(plan.manifest.units, args.sample, seed)?;
    let used: Vec<u64> = claims
        .computations
        .iter()
        .filter_map(|c| vkperft::chess::parse_seed(&c.seed).ok())
        .collect();
    let zobrist_seed = fresh_seed(seed, &used);
    output::write_stdout(&format!(
        "Recomputing {} of {} units (--seed {seed:#x} draws this sample again) with Zobrist seed {zobrist_seed:#x}, --tt {}\n",
        sample.len(),
        plan.manifest.units,
        args.tt.0
    ))?;
    let recomputation = Method {
        mode: args.tt.0,
        verifier_bits: DEFAULT_VERIFIER_BITS,
        seed: zobrist_seed,
    };
    let mut trust = check.trust.clone();
    let mut runner = Runner::new();
    let mut differing = Vec::new();
    for &id in &sample {
        let unit = &units[id as usize];
        let position = Position::from_fen(&unit.fen)
            .map_err(|e| CliError::input(anyhow!("unit {id}: {e}")))?;
        let journaled_stats = check.stats[id as usize];
        let spec = JobSpec {
            zobrist_seed,
            move_stats: journaled_stats.is_some(),
            ..recount_spec(args, position, unit.depth)
        };
        // One table for the whole sample, as `work run` keeps one for its units.
        let result = runner.run_observed(&spec, true, &mut |_| {})?;
        let journaled = check.counts[id as usize];
        let mut agrees = result.counts.nodes == journaled;
        if !agrees {
            differing.push(format!(
                "unit {id}: journal {journaled}, recomputed {}",
                result.counts.nodes
            ));
        }
        if let Some(stats) = journaled_stats {
            let recomputed = result.counts.stats.values();
            for ((stat, journal), recomputed) in
                MoveStat::TALLIED.iter().zip(stats.values()).zip(recomputed)
            {
                let name = stat.key();
                if journal != recomputed {
                    agrees = false;
                    differing.push(format!(
                        "unit {id}: {name}: journal {journal}, recomputed {recomputed}"
                    ));
                }
            }
        }
        if agrees {
            trust[id as usize] = Trust::recomputed(trust[id as usize], recomputation);
        }
    }
    if !differing.is_empty() {
        return Err(CliError::Mismatch(anyhow!(
            "{} of {} recomputed units differ from the journals:\n  {}",
            differing.len(),
            sample.len(),
            differing.join("\n  ")
        )));
    }
    let with_stats = if sample.iter().any(|&id| check.stats[id as usize].is_some()) {
        ", with their move-type statistics"
    } else {
        ""
    };
    let units_total = plan.manifest.units;
    let sampled = sample.len() as u64;
    let weakest = trust.iter().copied().min().unwrap_or(Trust::Exact);
    let mut levels: BTreeMap<Trust, u64> = BTreeMap::new();
    for &unit_trust in &trust {
        *levels.entry(unit_trust).or_default() += 1;
    }
    let levels: Vec<String> = levels
        .iter()
        .rev()
        .map(|(level, units)| format!("{units} {level}"))
        .collect();
    output::write_stdout(&format!(
        "All {sampled} recomputed units agree with the journals{with_stats}\n\
         Trust established: {weakest} (units: {}; recomputed here: {sampled}, the others by the journals' agreement across seeds)\n\
         A sample of {sampled} of {units_total} units misses every forged count with a chance of {}\n",
        levels.join(", "),
        miss_chances(units_total, sampled)
    ))?;
    let short: Vec<u64> = (0..)
        .zip(&trust)
        .filter(|&(_, &unit_trust)| !args.require.0.is_met_by(unit_trust))
        .map(|(unit, _)| unit)
        .collect();
    if short.is_empty() {
        return Ok(());
    }
    Err(CliError::Untrusted(anyhow!(
        "the trust established is {weakest}, short of --require {}: {} of {} units fall short (unit {} first); {}",
        args.require.0.name(),
        short.len(),
        trust.len(),
        short[0],
        match args.require.0 {
            Requirement::Exact => "--sample 100 with --tt verified (or off, certify) recomputes every unit exactly",
            _ => "a larger --sample recomputes more units with a seed of this check's own",
        }
    )))
}
