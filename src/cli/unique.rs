//! `vkperft unique`: the number of unique positions at each ply.

use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::perft::start_position;
use super::work_args::UniqueArgs;
use serde_json::json;
use vkperft::engine::mib_to_bytes;
use vkperft::unique::{expand, ExpansionOptions, UniqueError};

pub fn run(args: &UniqueArgs) -> CliResult {
    let root = start_position(&args.position)?;
    let options = ExpansionOptions {
        memory_bytes: mib_to_bytes(args.mem_mb),
        scratch_parent: args.tmp_dir.clone().unwrap_or_else(std::env::temp_dir),
        by_root_move: false,
        interrupted: interrupt::requested,
    };
    let show_each = !args.json;
    let counts = expand(
        &root,
        args.depth,
        &options,
        |count| {
            if show_each {
                // Each ply as it completes: the deep ones take a while.
                output::write_stderr(&format!(
                    "ply {}: {} unique positions\n",
                    count.ply, count.unique
                ));
            }
        },
        |_| Ok(()),
    )
    .map_err(|error| match error {
        UniqueError::Io { .. } => CliError::runtime(error),
        UniqueError::Interrupted => CliError::Interrupted {
            elapsed: None,
            nodes: None,
        },
        _ => CliError::input(error),
    })?;
    if args.json {
        let plies: Vec<_> = counts
            .iter()
            .map(|c| {
                json!({"ply": c.ply, "unique": c.unique.to_string(), "paths": c.paths.to_string()})
            })
            .collect();
        output::write_stdout(&format!(
            "{}\n",
            json!({ "fen": root.to_fen(), "plies": plies })
        ))
    } else {
        let mut text = String::new();
        for count in &counts {
            text += &format!(
                "ply {}: {} unique positions, {} paths\n",
                count.ply, count.unique, count.paths
            );
        }
        output::write_stdout(&text)
    }
}
