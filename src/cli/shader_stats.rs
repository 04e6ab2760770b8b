//! `vkperft shader-stats`: the driver compiler's statistics of every search pipeline, as a
//! table (one column per pipeline executable) or a JSON list.

use super::args::ShaderStatsArgs;
use super::error::{CliError, CliResult};
use super::output;
use serde_json::{json, Value};
use vkperft::engine::EngineError;
use vkperft::gpu::shader_stats::{shader_stats, ExecutableStats, StatValue};

pub fn run(args: &ShaderStatsArgs) -> CliResult {
    // Through the engine's error mapping, so that a bad --device is bad input (exit 2).
    let stats = shader_stats(args.device).map_err(|err| CliError::from(EngineError::from(err)))?;
    if args.json {
        let list: Vec<Value> = stats.executables.iter().map(executable_json).collect();
        return output::write_stdout(&format!("{}\n", Value::Array(list)));
    }
    let device = &stats.device;
    let mut text = format!(
        "device {}: {} ({}), driver {}\n",
        device.index, device.name, device.api_version, device.driver
    );
    text += &table(&stats.executables);
    output::write_stdout(&text)
}

fn value_text(value: StatValue) -> String {
    match value {
        StatValue::Bool(b) => b.to_string(),
        StatValue::Int(i) => i.to_string(),
        StatValue::UInt(u) => u.to_string(),
        StatValue::Float(f) => format!("{f:.2}"),
    }
}

fn value_json(value: StatValue) -> Value {
    match value {
        StatValue::Bool(b) => json!(b),
        StatValue::Int(i) => json!(i),
        StatValue::UInt(u) => json!(u),
        StatValue::Float(f) => json!(f),
    }
}

fn executable_json(executable: &ExecutableStats) -> Value {
    let stats: serde_json::Map<String, Value> = executable
        .stats
        .iter()
        .map(|(name, value)| (name.clone(), value_json(*value)))
        .collect();
    json!({
        "pipeline": executable.pipeline,
        "executable": executable.executable,
        "description": executable.description,
        "subgroup_size": executable.subgroup_size,
        "stats": stats,
    })
}

/// One row per statistic, in the order the driver first reported it; one column per pipeline
/// executable (named by its pipeline, and its executable where a pipeline has several), blank
/// where an executable lacks the statistic.
fn table(executables: &[ExecutableStats]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for executable in executables {
        for (name, _) in &executable.stats {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    let several = |pipeline: &str| {
        executables
            .iter()
            .filter(|executable| executable.pipeline == pipeline)
            .count()
            > 1
    };
    let mut header = vec![String::new()];
    let mut subgroups = vec!["subgroup size".to_string()];
    for executable in executables {
        header.push(if several(&executable.pipeline) {
            format!("{}/{}", executable.pipeline, executable.executable)
        } else {
            executable.pipeline.clone()
        });
        subgroups.push(executable.subgroup_size.to_string());
    }
    let mut rows = vec![header, subgroups];
    for name in names {
        let mut row = vec![name.to_string()];
        for executable in executables {
            let value = executable
                .stats
                .iter()
                .find(|(stat, _)| stat == name)
                .map(|(_, value)| value_text(*value));
            row.push(value.unwrap_or_default());
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|column| rows.iter().map(|row| row[column].len()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, width))| match column {
                0 => format!("{cell:<width$}"),
                _ => format!("{cell:>width$}"),
            })
            .collect();
        text += cells.join("  ").trim_end();
        text.push('\n');
    }
    text
}
