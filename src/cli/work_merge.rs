//! `vkperft work merge`'s report, which `work slurm` also prints once its jobs have ended.

use super::error::{CliError, CliResult};
use super::output;
use anyhow::anyhow;
use serde_json::json;
use vkperft::work::{merge, read_journals, Merged, PlanFolder};

/// How many missing or differing units a message names before it only counts the rest.
const LISTED_UNITS: usize = 20;

/// `units` as a message lists them: the first few ids, then how many more.
fn unit_list(units: &[u64]) -> String {
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

/// Prints the total of `plan` (as JSON, with the divide, as asked), or fails naming the
/// units that disagree (exit 3) or have no result (exit 4).
pub(super) fn merge_report(plan: &PlanFolder, json: bool, divide: bool) -> CliResult {
    let units = plan.read_units()?;
    let scan = read_journals(plan)?;
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
    let seeds: Vec<String> = total.seeds.iter().map(|s| format!("{s:#x}")).collect();
    if json {
        let mut value = json!({
            "fen": plan.manifest.fen,
            "depth": plan.manifest.depth,
            "split_ply": plan.manifest.split_ply,
            "nodes": total.nodes.to_string(),
            "units": total.units,
            "modes": total.modes,
            "seeds": seeds,
        });
        if divide {
            value["divide"] = total
                .divide
                .iter()
                .map(|(mv, nodes)| json!({"move": mv, "nodes": nodes.to_string()}))
                .collect();
        }
        return output::write_stdout(&format!("{value}\n"));
    }
    let details = format!(
        "Units: {} (modes {}; seeds {})\n",
        total.units,
        total.modes.join(", "),
        seeds.join(", ")
    );
    if divide {
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
