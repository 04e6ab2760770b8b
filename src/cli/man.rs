//! `vkperft man`: the manual pages, generated from the clap definitions.

use super::error::{CliError, CliResult};
use super::output;
use anyhow::Context;
use clap::{Args, Command};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write vkperft.1 and a page per subcommand (vkperft-perft.1, vkperft-work-run.1, ...)
    /// into this folder instead of printing vkperft.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Renders the pages of `command` (the whole command line, [`super::commands::Cli`]'s).
pub fn run(args: &ManArgs, command: Command) -> CliResult {
    match &args.dir {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(CliError::input(anyhow::anyhow!(
                    "--dir {}: no such folder",
                    dir.display()
                )));
            }
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("writing the manual pages into {}", dir.display()))
                .map_err(CliError::runtime)
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command)
                .render(&mut page)
                .context("rendering the manual page")
                .map_err(CliError::runtime)?;
            output::write_stdout(&String::from_utf8_lossy(&page))
        }
    }
}
