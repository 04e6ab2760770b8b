//! `vkperft unique`: the number of unique positions at each ply.

use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::perft::start_position;
use super::work_args::UniqueArgs;
use serde_json::json;
use std::time::Instant;
use vkperft::engine::mib_to_bytes;
use vkperft::unique::{
    available_threads, expand, smallest_budget, ExpansionOptions, Progress, UniqueError,
};

/// `--mem-mb` in bytes, raised (with a note) to the smallest budget worth running.
pub(super) fn budget(mem_mb: u64, threads: usize) -> usize {
    let asked = mib_to_bytes(mem_mb);
    let smallest = smallest_budget(threads);
    if asked >= smallest {
        return asked;
    }
    output::write_stderr(&format!(
        "note: --mem-mb {mem_mb} is below the smallest budget worth running with {threads} \
         thread(s), the process, its buffers and an 8 MiB set: using {} MiB\n",
        smallest.div_ceil(1 << 20),
    ));
    smallest
}

/// Seconds between two progress lines on a terminal that is not one.
const PROGRESS_EVERY: f64 = 10.0;

pub fn run(args: &UniqueArgs) -> CliResult {
    let root = start_position(&args.position)?;
    let threads = args.threads.unwrap_or_else(available_threads);
    let options = ExpansionOptions {
        memory_bytes: budget(args.mem_mb, threads),
        threads,
        scratch_parent: args.tmp_dir.clone().unwrap_or_else(std::env::temp_dir),
        state_dir: args.state_dir.clone(),
        by_root_move: false,
        keep_last_ply: false,
        interrupted: interrupt::requested,
    };
    let started = Instant::now();
    let mut last_shown = f64::NEG_INFINITY;
    let counts = expand(
        &root,
        args.depth,
        &options,
        |progress| match progress {
            Progress::Ply {
                ply,
                done,
                resumed,
                partition,
                partitions,
                seconds,
            } => {
                let now = started.elapsed().as_secs_f64();
                if now - last_shown < PROGRESS_EVERY {
                    return;
                }
                last_shown = now;
                // The rate of this run alone: what an earlier run did took none of its time.
                let eta = if done > resumed && seconds > 0.0 {
                    format!(
                        ", about {:.0} s left",
                        seconds * (1.0 - done) / (done - resumed)
                    )
                } else {
                    String::new()
                };
                output::write_stderr(&format!(
                    "ply {ply}: {:.1}% (partition {} of {partitions}){eta}\n",
                    done * 100.0,
                    (partition + 1).min(partitions),
                ));
            }
            Progress::Done(count) => output::write_stderr(&format!(
                "ply {}: {} unique positions, {} paths ({} passes, {} bytes on disk, {:.1} s)\n",
                count.ply, count.unique, count.paths, count.passes, count.bytes, count.seconds
            )),
        },
        None,
    )
    .map_err(|error| match error {
        UniqueError::Io { .. } | UniqueError::Corrupt { .. } => CliError::runtime(error),
        UniqueError::Interrupted => CliError::Interrupted {
            elapsed: None,
            nodes: None,
        },
        _ => CliError::input(error),
    })?;
    let checked = counts.iter().all(|c| c.paths_checked);
    if args.json {
        let plies: Vec<_> = counts
            .iter()
            .map(|c| {
                json!({
                    "ply": c.ply,
                    "unique": c.unique.to_string(),
                    "paths": c.paths.to_string(),
                    "paths_checked": c.paths_checked,
                    "passes": c.passes,
                    "bytes": c.bytes,
                    "seconds": (c.seconds * 1000.0).round() / 1000.0,
                })
            })
            .collect();
        output::write_stdout(&format!(
            "{}\n",
            json!({ "fen": root.to_fen(), "threads": options.threads, "plies": plies })
        ))
    } else {
        let mut text = String::new();
        for count in &counts {
            text += &format!(
                "ply {}: {} unique positions, {} paths\n",
                count.ply, count.unique, count.paths
            );
        }
        text += if checked {
            "the paths of every ply add up to perft, counted over every child\n"
        } else {
            "the paths of resumed plies were not counted again\n"
        };
        output::write_stdout(&text)
    }
}
