//! Command-line interface: argument parsing, the subcommands, and exit codes
//! (0 success, 1 runtime failure, 2 bad input, 3 a cross-check mismatch, 4 a plan not yet
//! complete, 5 `hunt` or `suite` found a difference, 130 interrupted by Ctrl-C, see [`interrupt`]).

mod args;
mod bench;
mod commands;
mod completions;
mod devices;
mod error;
mod gui;
mod hunt;
mod interrupt;
mod man;
mod output;
mod peer;
mod perft;
mod progress;
mod progress_log;
mod shader_stats;
mod suite;
mod suite_progress;
mod unique;
mod work;
mod work_args;
mod work_merge;
mod work_slurm;
mod work_unique;
mod work_verify;

use clap::{CommandFactory, Parser};
use commands::{Cli, Commands};
use error::CliError;
use std::process::ExitCode;
use vkperft::chess::specialized::SliderLookup;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help and version to stdout with success, usage errors with code 2.
            let _ = err.print();
            return ExitCode::from(err.exit_code().clamp(0, 255) as u8);
        }
    };
    if matches!(
        cli.command,
        Some(Commands::Perft(_) | Commands::Perftree(_) | Commands::Bench(_))
            | Some(Commands::Unique(_))
            | Some(Commands::Work(work_args::WorkArgs {
                command: work_args::WorkCommand::Run(_)
                    | work_args::WorkCommand::Split(_)
                    | work_args::WorkCommand::VerifyCertificate(_)
            }))
    ) {
        interrupt::install();
    }
    if matches!(cli.command, Some(Commands::Suite(_))) {
        // The run kills every engine it started and stops; a second Ctrl-C exits at once.
        interrupt::install();
    }
    if matches!(cli.command, Some(Commands::Hunt(_))) {
        interrupt::install_for_hunt();
    }
    // A measurement knob with a typo would silently measure the other choice.
    let knobs = SliderLookup::from_env()
        .and_then(|_| vkperft::tt::huge_pages_from_env())
        .map_err(|e| CliError::input(anyhow::anyhow!(e)));
    let result = knobs.and_then(|_| match cli.command {
        Some(Commands::Perft(args)) => perft::run_perft(&args),
        Some(Commands::Perftree(args)) => perft::run_perftree(&args),
        Some(Commands::Hunt(args)) => hunt::run(&args),
        Some(Commands::Suite(args)) => suite::run(&args),
        Some(Commands::Bench(args)) => bench::run(&args),
        Some(Commands::Devices(args)) => devices::run(&args),
        Some(Commands::ShaderStats(args)) => shader_stats::run(&args),
        Some(Commands::Work(args)) => work::run(&args),
        Some(Commands::Unique(args)) => unique::run(&args),
        Some(Commands::Gui(args)) => gui::run(&args),
        Some(Commands::Completions(args)) => completions::run(&args, Cli::command()),
        Some(Commands::Man(args)) => man::run(&args, Cli::command()),
        None => gui::run(&args::GuiArgs::default()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // An interruption is what the user asked for, not an error.
            let prefix = match err {
                CliError::Interrupted { .. }
                | CliError::DifferenceFound
                | CliError::SuiteFailed(_) => "",
                _ => "error: ",
            };
            output::write_stderr(&format!("{prefix}{err}\n"));
            ExitCode::from(err.exit_code())
        }
    }
}
