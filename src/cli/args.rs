//! Arguments of every subcommand.

use clap::{Args, Parser, Subcommand, ValueEnum};
use vkperft::engine::BackendChoice;
use vkperft::gpu::GpuOptions;
use vkperft::tt::{TtConfig, TtMode, DEFAULT_VERIFIER_BITS};

/// `vkperft::chess::zobrist::DEFAULT_SEED` as `--help` shows it.
const DEFAULT_SEED_TEXT: &str = "0x766b7065726674";

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
    /// The script interface of the perftree debugger: `vkperft perftree DEPTH FEN [MOVES]`.
    Perftree(PerftreeArgs),
    /// Nodes, seconds and nodes/second on a fixed set of positions.
    Bench(BenchArgs),
    /// List the Vulkan devices, what they support, and which one vkperft would pick.
    Devices(DevicesArgs),
    /// Open the window: board editor, runs with live statistics, divide walk and history.
    Gui(GuiArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// Vulkan if a usable device exists (and the run needs nothing it lacks), else the CPU.
    Auto,
    Cpu,
    Vulkan,
}

impl BackendArg {
    pub fn choice(self) -> BackendChoice {
        match self {
            BackendArg::Auto => BackendChoice::Auto,
            BackendArg::Cpu => BackendChoice::Cpu,
            BackendArg::Vulkan => BackendChoice::Vulkan,
        }
    }
}

/// `--tt`: how far the transposition table is trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TtArg {
    /// No table: raw move generation speed, the ground truth.
    Off,
    /// Compact 16-byte entries with a 64-bit verifier: fastest, with a stated risk.
    Fast,
    /// Exact 32-byte position key and 128-bit counts: no false hits.
    Verified,
    /// The fast table plus an exact shadow key per slot: counts and corrects the fast table's
    /// false hits.
    Certify,
}

impl TtArg {
    pub fn mode(self) -> TtMode {
        match self {
            TtArg::Off => TtMode::Off,
            TtArg::Fast => TtMode::Fast,
            TtArg::Verified => TtMode::Verified,
            TtArg::Certify => TtMode::Certify,
        }
    }
}

/// Options shared by every command that runs perft.
#[derive(Args, Debug, Clone)]
pub struct RunOptions {
    /// Backend to run on.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendArg,
    /// Vulkan device index from `vkperft devices` (default: discrete, then integrated, then CPU).
    #[arg(long)]
    pub device: Option<usize>,
    /// GPU memory for the search buffers in MiB (default: a quarter of the device's memory,
    /// at most 2 GiB).
    #[arg(long)]
    pub gpu_mem_mb: Option<u64>,
    /// CPU threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Transposition table mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub tt: TtArg,
    /// Transposition table size in MiB (the table uses at most this much).
    #[arg(long, default_value_t = 256)]
    pub tt_mb: u64,
    /// Compare only the low K bits of the fast verifier (8..=64): a debug knob that makes false
    /// hits frequent, to watch `fast` drift and `certify` catch them.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_VERIFIER_BITS,
          value_parser = clap::value_parser!(u32).range(8..=64))]
    pub verifier_bits: u32,
    /// Seed of the 128-bit Zobrist keys (decimal or 0x-hex).
    #[arg(long, value_parser = parse_seed, default_value = DEFAULT_SEED_TEXT)]
    pub zobrist_seed: u64,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Position to start from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves in UCI notation played from the FEN first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    #[command(flatten)]
    pub run: RunOptions,
    /// Repeat the run with an independent Zobrist seed and the same mode; exit 3 with both
    /// totals if they differ.
    #[arg(long)]
    pub cross_check: bool,
    /// Print the count of every root move (Stockfish's format).
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PerftreeArgs {
    pub depth: u32,
    pub fen: String,
    /// Space-separated UCI moves in one argument; may be empty.
    pub moves: Option<String>,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub run: RunOptions,
    /// Also run a peer on the same positions in the same run and print the speed ratio.
    /// `stockfish` (found on PATH or in /usr/games) or a path to a Stockfish binary.
    #[arg(long)]
    pub peer: Option<String>,
    /// Shallower depths (a quick smoke run, not a measurement).
    #[arg(long)]
    pub quick: bool,
    /// Only this position of the set (startpos, kiwipete, position3 .. position6).
    #[arg(long)]
    pub position: Option<String>,
    /// Run every position at this depth instead of its usual one.
    #[arg(long, conflicts_with = "quick")]
    pub depth: Option<u32>,
    /// Several TT modes side by side, e.g. `--modes fast,verified,certify` (instead of `--tt`).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub modes: Vec<TtArg>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    Light,
    Dark,
}

#[derive(Args, Debug, Default)]
pub struct GuiArgs {
    /// Start in this theme instead of the remembered one.
    #[arg(long, value_enum)]
    pub theme: Option<ThemeArg>,
    /// Smoke test: run the default job, save a PNG of the window to this path, and exit.
    #[arg(long, value_name = "PATH", hide = true)]
    pub screenshot: Option<std::path::PathBuf>,
}

fn parse_seed(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("'{text}' is not a 64-bit seed (decimal or 0x-hex)"))
}

impl RunOptions {
    pub fn thread_count(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        )
    }
}

impl RunOptions {
    pub fn backend_name(&self) -> &'static str {
        self.backend.choice().name()
    }

    pub fn gpu_options(&self) -> GpuOptions {
        GpuOptions {
            device: self.device,
            memory_budget: self.gpu_mem_mb.map(|mb| mb.saturating_mul(1 << 20)),
        }
    }

    pub fn tt_config(&self) -> TtConfig {
        TtConfig {
            mode: self.tt.mode(),
            bytes: usize::try_from(self.tt_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
            verifier_bits: self.verifier_bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vkperft::chess::zobrist::DEFAULT_SEED;

    #[test]
    fn seed_text_matches_the_library_default() {
        assert_eq!(parse_seed(DEFAULT_SEED_TEXT), Ok(DEFAULT_SEED));
        assert_eq!(parse_seed("0X10"), Ok(16));
        assert_eq!(parse_seed("42"), Ok(42));
        assert!(parse_seed("0xzz").is_err());
    }
}
