//! `vkperft work merge`'s report, which `work slurm` also prints once its jobs have ended.

use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::work_args::DEFAULT_DEDUP_MB;
use anyhow::anyhow;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use vkperft::engine::{mib_to_bytes, move_stats_json, move_stats_text};
use vkperft::work::{
    certificate, merge, read_journals, rederive, JournalScan, Merged, PlanFault, PlanFolder,
    Rederivation, Requirement, Total, WorkError,
};

/// How many missing or differing units a message names before it only counts the rest.
const LISTED_UNITS: usize = 20;

/// What `work merge` prints and demands.
#[derive(Clone, Debug)]
pub(super) struct MergeOptions {
    pub json: bool,
    pub divide: bool,
    pub require: Requirement,
    pub ignore_damaged: bool,
    pub certificate: Option<PathBuf>,
}

impl Default for MergeOptions {
    fn default() -> MergeOptions {
        MergeOptions {
            json: false,
            divide: false,
            require: Requirement::Any,
            ignore_damaged: false,
            certificate: None,
        }
    }
}

/// `units` as a message lists them: the first few ids, then how many more.
pub(super) fn unit_list(units: &[u64]) -> String {
    let mut text: Vec<String> = units
        .iter()
        .take(LISTED_UNITS)
        .map(u64::to_string)
        .collect();
    if units.len() > LISTED_UNITS {
        text.push(format!("and {} more", units.len() - LISTED_UNITS));
    }
    text.join(", ")
}

/// The error of a plan that is not what its root makes it: exit 3, naming each fault.
pub(super) fn inconsistent_plan(faults: &[PlanFault]) -> CliError {
    let faults: Vec<String> = faults.iter().map(ToString::to_string).collect();
    CliError::Mismatch(anyhow!(
        "the plan is not what its root makes it (its files were changed and sealed again):\n  {}",
        faults.join("\n  ")
    ))
}

/// Writes `bytes` to a file beside `path` and renames it over `path` once it is on disk: a
/// full disk or a signal leaves the old file or none, never a part of the new one.
pub(super) fn write_aside(path: &Path, bytes: &[u8]) -> Result<(), WorkError> {
    let name = path.file_name().map_or_else(
        || std::ffi::OsString::from("certificate"),
        |name| name.to_os_string(),
    );
    let mut staged_name = std::ffi::OsString::from(".");
    staged_name.push(&name);
    staged_name.push(format!(".{}.tmp", std::process::id()));
    let staged = path.with_file_name(staged_name);
    let written = std::fs::File::create(&staged)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&staged, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&staged);
        WorkError::io(path, e)
    })
}

/// Says on stderr which journal lines are left out, and refuses damaged ones unless told to
/// go on.
pub(super) fn report_ignored_lines(
    torn: usize,
    damaged: &[(PathBuf, usize)],
    ignore_damaged: bool,
) -> CliResult {
    if !damaged.is_empty() && !ignore_damaged {
        return Err(WorkError::DamagedJournal {
            lines: damaged.to_vec(),
        }
        .into());
    }
    if torn + damaged.len() > 0 {
        output::write_stderr(&format!(
            "{}Ignored journal lines: {torn} torn, {} damaged\n",
            if damaged.is_empty() { "" } else { "warning: " },
            damaged.len()
        ));
    }
    Ok(())
}

/// Prints the total of `plan` with its trust and risk (as JSON, with the divide, as asked) and
/// writes its certificate; or fails naming the units that disagree (exit 3), have no result
/// (exit 4) or fall short of the trust required (exit 6).
pub(super) fn merge_report(plan: &PlanFolder, options: &MergeOptions) -> CliResult {
    let units = plan.read_units()?;
    let scan = read_journals(plan)?;
    report_ignored_lines(scan.torn, &scan.damaged, options.ignore_damaged)?;
    let total = match merge(plan, &units, &scan)? {
        Merged::Total(total) => total,
        Merged::Disagreeing(units) => {
            let mut text = format!("{} units have results that disagree:", units.len());
            for (unit, counts) in units.iter().take(LISTED_UNITS) {
                let counts: Vec<String> = counts.iter().map(u128::to_string).collect();
                text += &format!("\n  unit {unit}: {}", counts.join(" vs "));
            }
            return Err(CliError::Mismatch(anyhow!(text)));
        }
        Merged::StatsDisagreeing(units) => {
            let listed: Vec<String> = units
                .iter()
                .take(LISTED_UNITS)
                .map(u64::to_string)
                .collect();
            return Err(CliError::Mismatch(anyhow!(
                "{} units have results that agree on the count but not on the move-type \
                 statistics: {}",
                units.len(),
                listed.join(", ")
            )));
        }
        Merged::Inconsistent(mut faults) => {
            // Splitting the root again names the units changed.
            faults.extend(rederive(
                plan,
                &units,
                &Rederivation {
                    memory_bytes: mib_to_bytes(DEFAULT_DEDUP_MB),
                    scratch_parent: std::env::temp_dir(),
                    interrupted: interrupt::requested,
                },
            )?);
            return Err(inconsistent_plan(&faults));
        }
        Merged::Missing(missing) => {
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
                plan.manifest.units,
                unit_list(&missing),
                shards.join(", ")
            )));
        }
    };
    if let Some(path) = &options.certificate {
        let document = certificate(plan, &total, &scan);
        let text = serde_json::to_string_pretty(&document).expect("a certificate serializes");
        write_aside(path, format!("{text}\n").as_bytes())?;
    }
    print_total(plan, &total, &scan, options)?;
    let short = total.short_of(options.require);
    if short.is_empty() {
        return Ok(());
    }
    Err(CliError::Untrusted(anyhow!(
        "the total's trust is {}, short of --require {}: {} of {} units fall short (units {}); {}",
        total.trust,
        options.require.name(),
        short.len(),
        total.units,
        unit_list(&short),
        match options.require {
            Requirement::Exact =>
                "a merge cannot check a record's declared mode: `vkperft work verify-certificate --sample 100 --tt verified --require exact` recomputes every unit exactly",
            _ => "`vkperft work run` with another --zobrist-seed computes them independently",
        }
    )))
}

fn print_total(
    plan: &PlanFolder,
    total: &Total,
    scan: &JournalScan,
    options: &MergeOptions,
) -> CliResult {
    let seeds: Vec<String> = total.seeds.iter().map(|s| format!("{s:#x}")).collect();
    let trust_counts: Vec<String> = total
        .trust_counts()
        .iter()
        .map(|(trust, units)| format!("{units} {trust}"))
        .collect();
    if options.json {
        let mut value = json!({
            "fen": plan.manifest.fen,
            "depth": plan.manifest.depth,
            "split_ply": plan.manifest.split_ply,
            "nodes": total.nodes.to_string(),
            "units": total.units,
            "modes": total.modes,
            "seeds": seeds,
            "trust": total.trust.name(),
            "trust_units": total
                .trust_counts()
                .iter()
                .map(|(trust, units)| json!({"level": trust.name(), "units": units}))
                .collect::<Vec<_>>(),
            "risk": total.risk.to_json(),
            "seal": plan.seal.to_string(),
            "torn_lines": scan.torn,
            "damaged_lines": scan.damaged.len(),
        });
        if let Some(stats) = &total.move_stats {
            value["stats"] = move_stats_json(stats);
        }
        if options.divide {
            value["divide"] = total
                .divide
                .iter()
                .map(|(mv, nodes)| json!({"move": mv, "nodes": nodes.to_string()}))
                .collect();
        }
        return output::write_stdout(&format!("{value}\n"));
    }
    let modes: Vec<String> = total
        .risk
        .modes
        .iter()
        .map(|m| format!("{} {}", m.records, m.mode))
        .collect();
    let stats = total
        .move_stats
        .map_or_else(String::new, |stats| move_stats_text(&stats, None));
    let details = format!(
        "{stats}Units: {} (records: {}; seeds {})\nTrust: {} (units: {})\n{}",
        total.units,
        modes.join(", "),
        seeds.join(", "),
        total.trust,
        trust_counts.join(", "),
        total.risk.to_text()
    );
    if options.divide {
        let mut text = String::new();
        for (mv, nodes) in &total.divide {
            text += &format!("{mv}: {nodes}\n");
        }
        output::write_stdout(&format!("{text}\nNodes searched: {}\n", total.nodes))?;
        // stdout stays exactly Stockfish's format.
        output::write_stderr(&details);
        Ok(())
    } else {
        output::write_stdout(&format!("Nodes searched: {}\n{details}", total.nodes))
    }
}
