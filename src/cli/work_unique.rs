//! `vkperft work split --unique` and `work run|status|merge` on a plan of unique positions:
//! thin adapters over [`vkperft::work`]'s unique-positions plans.

use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::perft::Runner;
use super::unique::budget;
use super::work_args::{
    SplitArgs, StatusArgs, VerifyCertificateArgs, WorkRunArgs, DEFAULT_UNIQUE_MB,
};
use super::work_merge::{report_ignored_lines, unit_list, write_aside, MergeOptions};
use super::work_verify::{certificate_findings, miss_chances, recount_spec, sample_seed_of};
use anyhow::anyhow;
use serde_json::json;
use std::time::Instant;
use vkperft::chess::Position;
use vkperft::count::thousands;
use vkperft::engine::BackendChoice;
use vkperft::unique::available_threads;
use vkperft::work::{
    check_unique_certificate, count_unit, merge_unique, read_unique_journals, run_unique_units,
    sample_units, split_unique, unique_by_unit, unique_certificate, Requirement, Trust,
    UniqueCertificateClaims, UniqueMerged, UniquePlan, UniqueSplitRequest, UniqueStatus,
};

pub fn run_split(args: &SplitArgs, root: Position) -> CliResult {
    let start = Instant::now();
    let threads = available_threads();
    let manifest = split_unique(&UniqueSplitRequest {
        root,
        depth: args.depth,
        shards: args.shards,
        out: args.out.clone(),
        memory_bytes: budget(args.mem_mb.unwrap_or(DEFAULT_UNIQUE_MB), threads),
        threads,
        min_partitions: args.partitions.unwrap_or(1),
        interrupted: interrupt::requested,
    })?;
    let parent = manifest.parent();
    let bytes: u64 = manifest.parent_files.iter().map(|f| f.bytes).sum();
    output::write_stdout(&format!(
        "Plan {}: the unique positions at ply {} in {} units (partitions), {} shard(s); ply {} counted here in {:.1} s ({} positions, {} paths, {} bytes kept)\n",
        args.out.display(),
        manifest.depth,
        thousands(manifest.partitions.into()),
        manifest.shards.len(),
        parent.ply,
        start.elapsed().as_secs_f64(),
        thousands(parent.unique.into()),
        parent.paths,
        thousands(bytes.into()),
    ))
}

pub fn run_units(args: &WorkRunArgs) -> CliResult {
    if args.run.backend.0 == BackendChoice::Vulkan {
        return Err(CliError::input(anyhow!(
            "--backend vulkan: the units of a plan of unique positions run on the CPU (--threads)"
        )));
    }
    let plan = UniquePlan::open(&args.plan)?;
    let shards = args.chosen_shards(plan.shard_count())?;
    let threads = args
        .run
        .threads
        .map_or_else(available_threads, |n| n as usize);
    let start = Instant::now();
    let mut journaled = 0;
    let outcome = run_unique_units(&plan, &shards, threads, interrupt::requested, |progress| {
        journaled = progress.done;
        output::write_stderr(&format!(
            "{} of {} units of the chosen shards done ({} by this run in {:.1} s)\n",
            progress.done, progress.units, progress.computed, progress.seconds
        ));
    });
    let report = match outcome {
        Ok(report) => report,
        Err(error) => {
            output::write_stderr(&format!(
                "{journaled} units of the chosen shards are journaled; `vkperft work run` again goes on from there\n"
            ));
            return Err(error.into());
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

pub fn run_status(args: &StatusArgs) -> CliResult {
    let plan = UniquePlan::open(&args.plan)?;
    let status = UniqueStatus::of(&plan, &read_unique_journals(&plan)?);
    if args.json {
        output::write_stdout(&format!("{}\n", status.to_json()))
    } else {
        output::write_stdout(&status.to_text())
    }
}

/// Prints the count of the plan's ply (as JSON as asked) and writes its certificate; or fails
/// naming the units that have no result (exit 4) or disagree, or partitions whose paths do not
/// add up (exit 3).
pub fn merge_report(plan: &UniquePlan, options: &MergeOptions) -> CliResult {
    if options.divide {
        return Err(CliError::input(anyhow!(
            "--divide: a plan of unique positions counts positions, not paths per root move"
        )));
    }
    let scan = read_unique_journals(plan)?;
    report_ignored_lines(scan.torn, &scan.damaged, options.ignore_damaged)?;
    let total = match merge_unique(plan, &scan) {
        UniqueMerged::Total(total) => total,
        UniqueMerged::Missing(missing) => {
            let shards: std::collections::BTreeSet<usize> = missing
                .iter()
                .filter_map(|&unit| {
                    (0..plan.shard_count()).find(|&s| plan.unit_ids(s).contains(&unit))
                })
                .collect();
            let shards: Vec<String> = shards.iter().map(usize::to_string).collect();
            return Err(CliError::Incomplete(anyhow!(
                "no total: {} of {} units have no result (units {}; in shards {}); `vkperft work run` or `vkperft work slurm` computes them",
                missing.len(),
                plan.units(),
                unit_list(&missing),
                shards.join(", ")
            )));
        }
        UniqueMerged::Disagreeing(units) => {
            return Err(CliError::Mismatch(anyhow!(
                "{} units have results that disagree: {}",
                units.len(),
                unit_list(&units)
            )))
        }
        UniqueMerged::PathsMismatch {
            partitions,
            children,
        } => {
            let children: Vec<String> = children.iter().map(u128::to_string).collect();
            return Err(CliError::Mismatch(anyhow!(
                "the partitions hold {partitions} paths, the children of the ply before {}: they do not cover the ply exactly once",
                children.join(" or ")
            )));
        }
    };
    if let Some(path) = &options.certificate {
        let document = unique_certificate(plan, &total, &scan);
        let text = serde_json::to_string_pretty(&document).expect("a certificate serializes");
        write_aside(path, format!("{text}\n").as_bytes())?;
    }
    let depth = plan.manifest.depth;
    if options.json {
        let mut plies: Vec<serde_json::Value> = plan
            .manifest
            .plies
            .iter()
            .map(|p| json!({"ply": p.ply, "unique": p.unique.to_string(), "paths": p.paths}))
            .collect();
        plies.push(json!({
            "ply": depth,
            "unique": total.unique.to_string(),
            "paths": total.paths.to_string(),
        }));
        return output::write_stdout(&format!(
            "{}\n",
            json!({
                "kind": "unique",
                "fen": plan.manifest.fen,
                "depth": depth,
                "unique": total.unique.to_string(),
                "paths": total.paths.to_string(),
                "paths_checked": true,
                "units": total.units,
                "repeated_units": total.repeated_units,
                "passes": total.passes,
                "seconds": total.seconds,
                "trust": "exact",
                "plies": plies,
            })
        ));
    }
    output::write_stdout(&format!(
        "Unique positions at ply {depth}: {}\nPaths: {} (perft({depth}); checked: the partitions add up to the children of ply {})\nUnits: {} (partitions, {} passes), exact keys: no hash risk\n",
        total.unique,
        total.paths,
        depth - 1,
        total.units,
        total.passes,
    ))
}

/// `work verify-certificate` of a unique-positions plan: checks the certificate against the
/// plan and its journals as they are now, counts perft(depth) again with the perft engine (the
/// paths the partitions add up to), and recounts a sample of the units from the plan's files:
/// exit 3 if anything differs, 6 if the trust falls short of `--require`.
pub fn verify_certificate(args: &VerifyCertificateArgs) -> CliResult {
    let claims = UniqueCertificateClaims::read(&args.certificate)?;
    let dir = args.plan.clone().unwrap_or_else(|| claims.plan_folder());
    let plan = UniquePlan::open(&dir)?;
    let scan = read_unique_journals(&plan)?;
    let check = check_unique_certificate(&plan, &scan, &claims);
    certificate_findings(
        &check.unlisted,
        "its results were merged too",
        &check.failures,
    )?;
    let depth = plan.manifest.depth;
    output::write_stdout(&format!(
        "Certificate holds: seal {}, {} journal files, ply {depth}: {} unique positions, {} paths; the partitions' paths add up to the children of ply {}\n",
        plan.seal,
        claims.journals.len(),
        claims.unique,
        claims.paths,
        depth - 1,
    ))?;

    let root = Position::from_fen(&plan.manifest.fen)
        .map_err(|e| CliError::input(anyhow!("the plan's position: {e}")))?;
    let spec = recount_spec(args, root, depth);
    let perft = Runner::new().run_observed(&spec, false, &mut |_| {})?;
    if perft.counts.nodes.to_string() != claims.paths {
        return Err(CliError::Mismatch(anyhow!(
            "perft({depth}) counted again is {}, the certificate's paths {}: the plan's ply {} does not hold every line",
            perft.counts.nodes,
            claims.paths,
            depth - 1
        )));
    }
    output::write_stdout(&format!(
        "Paths hold: perft({depth}) counted again by the perft engine (--tt {}) is {}\n",
        args.tt.0, perft.counts.nodes
    ))?;

    let seed = sample_seed_of(args);
    let units = plan.units();
    let sample = sample_units(units, args.sample, seed)?;
    let threads = args.threads.map_or_else(available_threads, |n| n as usize);
    output::write_stdout(&format!(
        "Recounting {} of {units} units (--seed {seed:#x} draws this sample again) from the plan's ply {} on {threads} thread(s)\n",
        sample.len(),
        depth - 1
    ))?;
    let files = plan.parent_files()?;
    let journaled = unique_by_unit(&scan);
    let mut differing = Vec::new();
    for &id in &sample {
        let recounted = count_unit(&plan, id, &files, threads, interrupt::requested)?;
        let journal = &journaled[&id][0].count;
        let pairs = [
            (
                "positions",
                u128::from(journal.unique),
                u128::from(recounted.unique),
            ),
            ("paths", journal.paths, recounted.paths),
            (
                "children's paths",
                journal.children_paths,
                recounted.children_paths,
            ),
        ];
        for (what, journal, recounted) in pairs {
            if journal != recounted {
                differing.push(format!(
                    "unit {id}: {what}: journal {journal}, recounted {recounted}"
                ));
            }
        }
    }
    if !differing.is_empty() {
        return Err(CliError::Mismatch(anyhow!(
            "recounted units differ from the journals:\n  {}",
            differing.join("\n  ")
        )));
    }
    let sampled = sample.len() as u64;
    // A unit's exact keys make its count exact if its record is honest; only a recount
    // establishes that, so the others stay declared.
    let weakest = if sampled == units {
        Trust::Exact
    } else {
        Trust::DeclaredExact
    };
    output::write_stdout(&format!(
        "All {sampled} recounted units agree with the journals\n\
         Trust established: {weakest} (units: {sampled} exact, recounted here with exact keys; {} declared exact by their records)\n\
         A sample of {sampled} of {units} units misses every forged count with a chance of {}\n",
        units - sampled,
        miss_chances(units, sampled)
    ))?;
    if args.require.0.is_met_by(weakest) {
        return Ok(());
    }
    Err(CliError::Untrusted(anyhow!(
        "the trust established is {weakest}, short of --require {}: {} of {units} units were not recounted; {}",
        args.require.0.name(),
        units - sampled,
        match args.require.0 {
            Requirement::Exact => "--sample 100 recounts every unit",
            _ => "a larger --sample recounts more units",
        }
    )))
}
