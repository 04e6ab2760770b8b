//! Arguments of every subcommand.

use super::error::CliError;
use super::peer::PeerBin;
use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use vkperft::backend::MAX_DEPTH;
use vkperft::chess::parse_seed;
use vkperft::chess::Position;
use vkperft::engine::{all_cores, BackendChoice, JobSpec};
use vkperft::gpu::Submissions;
use vkperft::tt::{TableSplit, TtMode, DEFAULT_VERIFIER_BITS};

/// `vkperft::chess::zobrist::DEFAULT_SEED` as `--help` shows it.
const DEFAULT_SEED_TEXT: &str = "0x766b7065726674";

/// `--backend`, with the engine's own descriptions as help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackendArg(pub BackendChoice);

impl ValueEnum for BackendArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            BackendArg(BackendChoice::Auto),
            BackendArg(BackendChoice::Cpu),
            BackendArg(BackendChoice::Vulkan),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.description()))
    }
}

/// `--tt`: how far the transposition table is trusted, with the table's own descriptions as
/// help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtArg(pub TtMode);

impl ValueEnum for TtArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            TtArg(TtMode::Off),
            TtArg(TtMode::Fast),
            TtArg(TtMode::Verified),
            TtArg(TtMode::Certify),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.description()))
    }
}

/// `--submissions`: when the GPU's chunks go in one submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubmissionsArg(pub Submissions);

impl ValueEnum for SubmissionsArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            SubmissionsArg(Submissions::Auto),
            SubmissionsArg(Submissions::Paced),
            SubmissionsArg(Submissions::Whole),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0 {
            Submissions::Auto => {
                "whole on a GPU that drives no display (VK_KHR_display lists none, and neither \
                 DISPLAY nor WAYLAND_DISPLAY is set), else paced"
            }
            Submissions::Paced => {
                "no submission over about 100 ms (a display GPU's watchdog resets longer ones)"
            }
            Submissions::Whole => "every chunk in one submission, however long it runs",
        };
        Some(PossibleValue::new(self.0.name()).help(help))
    }
}

/// `--tt-split`: how the GPU's fast table shares its memory between remaining depths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSplitArg(pub TableSplit);

impl ValueEnum for TableSplitArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            TableSplitArg(TableSplit::Distinct),
            TableSplitArg(TableSplit::Fixed),
            TableSplitArg(TableSplit::Shared),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0 {
            TableSplit::Distinct => {
                "depth 2 in compact 8-byte entries, given the share of memory its distinct \
                 positions ask for, as the run's plan predicts them"
            }
            TableSplit::Fixed => "depth 2 in compact 8-byte entries in half of the memory",
            TableSplit::Shared => "one table of 16-byte entries for every depth",
        };
        Some(PossibleValue::new(self.0.name()).help(help))
    }
}

/// Options shared by every command that runs perft.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// Backend to run on.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendArg,
    /// Vulkan device index from `vkperft devices` (default: discrete, then integrated, then CPU).
    #[arg(long)]
    pub device: Option<usize>,
    /// GPU memory for the search buffers in MiB (default: a quarter of the device's free
    /// memory, as many positions as one binding holds; `vkperft devices` shows it).
    #[arg(long)]
    pub gpu_mem_mb: Option<u64>,
    /// When the GPU's chunks go in one submission.
    #[arg(long, value_enum, default_value = "auto")]
    pub submissions: SubmissionsArg,
    /// How the GPU's fast table shares its memory between remaining depth 2 and the deeper
    /// depths (the CPU's table is always shared).
    #[arg(long, value_enum, default_value = "distinct")]
    pub tt_split: TableSplitArg,
    /// CPU threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Transposition table mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub tt: TtArg,
    /// Transposition table size in MiB (the table uses at most this much). Default: most of a
    /// GPU's free memory (`vkperft devices` shows how much), else 256 MiB.
    #[arg(long)]
    pub tt_mb: Option<u64>,
    /// Compare only the low K bits of the fast verifier (8..=64): a debug knob that makes false
    /// hits frequent, to watch `fast` drift and `certify` catch them.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_VERIFIER_BITS,
          value_parser = clap::value_parser!(u32).range(8..=64))]
    pub verifier_bits: u32,
    /// Seed of the 128-bit Zobrist keys (decimal or 0x-hex).
    #[arg(long, value_parser = seed_arg, default_value = DEFAULT_SEED_TEXT)]
    pub zobrist_seed: u64,
    /// Also count what the last move of every line was: captures, en passant, castles,
    /// promotions, checks, discovered and double checks, checkmates, stalemates (`auto` counts
    /// them on the CPU: on Vulkan they cost about 3x the node count).
    #[arg(long)]
    pub stats: bool,
}

/// The position a command starts from: `--fen` (default: the start position), then `--moves`.
#[derive(Args, Debug, Default)]
pub struct PositionArgs {
    /// Position to start from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves in UCI notation played from the FEN first (a castle as e1g1 or e1h1).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Chess960 notation: castling written king-to-rook (e1h1), as engines with UCI_Chess960
    /// expect, and FENs in Shredder form (HAha). Without it, a FEN whose castling rights need
    /// Chess960 (a king off the e-file or a rook out of its corner, or Shredder-FEN letters)
    /// switches to it.
    #[arg(long)]
    pub chess960: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    #[command(flatten)]
    pub run: RunOptions,
    /// Repeat the run with an independent Zobrist seed and the same mode; exit 3 with both
    /// totals if they differ.
    #[arg(long)]
    pub cross_check: bool,
    /// Write every progress report (ten a second) to this file as one JSON line: seconds,
    /// nodes, tasks done and in all, the table's probes, hits, stores and occupancy.
    #[arg(long, value_name = "FILE")]
    pub progress_log: Option<std::path::PathBuf>,
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
    /// Chess960 notation for castling (e1h1), as with `perft --chess960`.
    #[arg(long)]
    pub chess960: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub run: RunOptions,
    /// Also run a peer on the same positions in the same run and print the speed ratio.
    /// `stockfish` (found on PATH or in /usr/games) or a path to a Stockfish binary.
    #[arg(long)]
    pub peer: Option<String>,
    /// Also run this peer program, by path: NAME one of stockfish, gigantua, ellxor, mperft,
    /// mperft-null (MPerft 5 with --nullmove), perft_cpu_2026 (repeatable, one column group
    /// each). Peers run without a hash table, and with a table of the modes' size beside
    /// `--modes` where they have one; with `--threads` where they have an option for it (MPerft's
    /// `--threads`, perft_cpu_2026's `-mt`). Gigantua and Stockfish's perft run one thread, and
    /// ellxor every online CPU: pin the run (`taskset -c 0`) to compare one thread.
    #[arg(long = "peer-bin", value_name = "NAME=PATH")]
    pub peer_bins: Vec<PeerBin>,
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
    /// Run every program this many times on each position and keep its fastest run: the
    /// minimum is the time least disturbed by the rest of the machine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub runs: u32,
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

#[derive(Args, Debug)]
pub struct ShaderStatsArgs {
    /// Vulkan device index from `vkperft devices`, usable or not (default: the first device, in
    /// the usual order of preference, whose driver reports statistics)
    #[arg(long)]
    pub device: Option<usize>,
    /// Print a JSON list, one object per pipeline executable, instead of a table.
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
    /// Open the window at this size in points, `WIDTHxHEIGHT` (at least 800x560), instead of
    /// the remembered one.
    #[arg(long, value_name = "WIDTHxHEIGHT", value_parser = window_size_arg)]
    pub size: Option<[f32; 2]>,
    /// Smoke test: run the default job, save a PNG of the window to this path, and exit.
    #[arg(long, value_name = "PATH", hide = true)]
    pub screenshot: Option<std::path::PathBuf>,
    /// Start with this position on the board (`--moves` played from it) instead of the
    /// remembered one.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Start with this depth instead of the remembered one.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Start in this transposition table mode instead of the remembered one.
    #[arg(long, value_enum)]
    pub tt: Option<TtArg>,
    /// Compare only the low K bits of the fast verifier (8..=64) in this session; later
    /// sessions keep the remembered width.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(8..=64))]
    pub verifier_bits: Option<u32>,
}

fn window_size_arg(text: &str) -> Result<[f32; 2], String> {
    vkperft::app::window::parse_size(text)
}

fn seed_arg(text: &str) -> Result<u64, String> {
    parse_seed(text).map_err(|err| err.to_string())
}

impl RunOptions {
    /// The CPU threads a run gets.
    pub fn thread_count(&self) -> usize {
        self.threads.map_or_else(all_cores, |n| n as usize)
    }

    /// These options as command-line arguments, for a process started elsewhere (`work
    /// slurm`'s tasks) to run as this one would: every option spelled out, defaults too, but for
    /// those whose default depends on the machine (threads, device, memory, table size), which
    /// are passed only when chosen.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![
            "--backend".to_string(),
            self.backend.0.name().to_string(),
            "--tt".to_string(),
            self.tt.0.name().to_string(),
            "--submissions".to_string(),
            self.submissions.0.name().to_string(),
            "--tt-split".to_string(),
            self.tt_split.0.name().to_string(),
            "--verifier-bits".to_string(),
            self.verifier_bits.to_string(),
            "--zobrist-seed".to_string(),
            format!("{:#x}", self.zobrist_seed),
        ];
        let optional = [
            ("--device", self.device.map(|n| n as u64)),
            ("--gpu-mem-mb", self.gpu_mem_mb),
            ("--threads", self.threads.map(u64::from)),
            ("--tt-mb", self.tt_mb),
        ];
        for (flag, value) in optional {
            if let Some(value) = value {
                args.extend([flag.to_string(), value.to_string()]);
            }
        }
        if self.stats {
            args.push("--stats".to_string());
        }
        args
    }

    /// Refuses options that the others make meaningless, which would otherwise be ignored in
    /// silence: a Vulkan device or GPU memory for a run on the CPU, a narrowed verifier for a
    /// mode without a fast verifier.
    pub fn check(&self) -> Result<(), CliError> {
        let on_cpu = self.backend.0 == BackendChoice::Cpu;
        let refuse = |text: &str| Err(CliError::input(anyhow::anyhow!("{text}")));
        if on_cpu && self.device.is_some() {
            return refuse("--device picks a Vulkan device; --backend cpu runs on the CPU");
        }
        if on_cpu && self.gpu_mem_mb.is_some() {
            return refuse("--gpu-mem-mb sizes the GPU's buffers; --backend cpu runs on the CPU");
        }
        let fast_verifier = self.tt.0.has_verifier();
        if !fast_verifier && self.verifier_bits != DEFAULT_VERIFIER_BITS {
            return refuse(&format!(
                "--verifier-bits narrows the fast table's verifier; --tt {} has none",
                self.tt.0
            ));
        }
        Ok(())
    }

    /// The job these options describe for `position` at `depth`.
    pub fn spec(&self, position: Position, depth: u32) -> JobSpec {
        JobSpec {
            position,
            depth,
            backend: self.backend.0,
            device: self.device,
            gpu_mem_mb: self.gpu_mem_mb,
            submissions: self.submissions.0,
            table_split: self.tt_split.0,
            threads: self.threads.map(|n| n as usize),
            tt_mode: self.tt.0,
            tt_mb: self.tt_mb,
            verifier_bits: self.verifier_bits,
            zobrist_seed: self.zobrist_seed,
            move_stats: self.stats,
            stats_every_depth: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use vkperft::chess::zobrist::DEFAULT_SEED;

    #[derive(Parser)]
    struct Options {
        #[command(flatten)]
        run: RunOptions,
    }

    fn parse(args: &[String]) -> RunOptions {
        Options::try_parse_from(std::iter::once("vkperft".to_string()).chain(args.iter().cloned()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"))
            .run
    }

    /// Written back as arguments, options parse to the same options: defaults, and every
    /// option changed.
    #[test]
    fn run_options_round_trip_through_arguments() {
        let changed: Vec<String> = [
            "--backend",
            "vulkan",
            "--device",
            "1",
            "--gpu-mem-mb",
            "512",
            "--threads",
            "3",
            "--tt",
            "certify",
            "--submissions",
            "whole",
            "--tt-split",
            "fixed",
            "--tt-mb",
            "64",
            "--verifier-bits",
            "16",
            "--zobrist-seed",
            "0x2a",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for options in [parse(&[]), parse(&changed)] {
            assert_eq!(parse(&options.to_args()), options);
        }
        assert_eq!(parse(&changed).zobrist_seed, 42);
    }

    #[test]
    fn seed_text_matches_the_library_default() {
        assert_eq!(seed_arg(DEFAULT_SEED_TEXT), Ok(DEFAULT_SEED));
        assert!(seed_arg("0xzz").is_err_and(|e| e.contains("0xzz")));
    }
}
