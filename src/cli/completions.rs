//! `vkperft completions SHELL`: a shell completion script, generated from the clap definitions.

use super::error::CliResult;
use super::output;
use clap::{Args, Command, ValueEnum};
use clap_complete::Shell;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for; the script goes to stdout (see docs/cli.md for where each
    /// shell looks for it).
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// The shells completions are generated and tested for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

impl CompletionShell {
    fn generator(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
            CompletionShell::Powershell => Shell::PowerShell,
        }
    }
}

/// Writes the completion script of `command` (the whole command line, [`super::commands::Cli`]'s).
pub fn run(args: &CompletionsArgs, mut command: Command) -> CliResult {
    let mut script = Vec::new();
    let name = command.get_name().to_owned();
    clap_complete::generate(args.shell.generator(), &mut command, name, &mut script);
    output::write_stdout(&String::from_utf8_lossy(&script))
}
