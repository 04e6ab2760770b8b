//! The command line as a whole: the subcommands and the arguments of each.

use super::args::{BenchArgs, DevicesArgs, GuiArgs, PerftArgs, PerftreeArgs, ShaderStatsArgs};
use super::completions::CompletionsArgs;
use super::hunt::HuntArgs;
use super::man::ManArgs;
use super::suite::SuiteArgs;
use super::work_args::{UniqueArgs, WorkArgs};
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "vkperft",
    version,
    about = "Exact chess perft on the CPU and Vulkan GPUs, with a transposition table whose trust you choose"
)]
pub struct Cli {
    /// Without a subcommand, the window opens (as `vkperft gui`).
    #[command(subcommand)]
    pub command: Option<Commands>,
}

#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Count the leaf nodes of the legal-move tree to a depth.
    Perft(PerftArgs),
    /// Find a move generator's bug: compare your engine's divide with vkperft's and descend to
    /// the first position where its move list is wrong.
    Hunt(HuntArgs),
    /// Run perft suites (EPD, .perft, tab-separated) against vkperft or your engine, walking
    /// every failure to its wrong position; or generate a suite from random games.
    Suite(SuiteArgs),
    /// The script interface of the perftree debugger: `vkperft perftree DEPTH FEN [MOVES]`.
    Perftree(PerftreeArgs),
    /// Nodes, seconds and nodes/second on a fixed set of positions.
    Bench(BenchArgs),
    /// List the Vulkan devices, what they support, and which one vkperft would pick.
    Devices(DevicesArgs),
    /// The GPU compiler's statistics of the search shaders (registers, spills, code size), from
    /// drivers with VK_KHR_pipeline_executable_properties; creates pipelines only.
    ShaderStats(ShaderStatsArgs),
    /// Open the window: board editor, runs with live statistics, divide walk and history.
    Gui(GuiArgs),
    /// Long runs as work units: split a perft into a plan folder, run its shards (resumable),
    /// watch, merge and compare.
    Work(WorkArgs),
    /// The number of unique positions at each ply (OEIS A083276 for the start position).
    Unique(UniqueArgs),
    /// Print a completion script for bash, zsh, fish or PowerShell.
    Completions(CompletionsArgs),
    /// Print the manual page (or write one per subcommand with --dir).
    Man(ManArgs),
}
