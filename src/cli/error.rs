//! CLI errors and their exit codes, and how the engine's errors map to the flags they concern.

use std::fmt;
use std::time::Duration;
use vkperft::count::thousands;
use vkperft::engine::EngineError;
use vkperft::gpu::GpuError;
use vkperft::tt::TtError;

/// Returned so that subcommands share the error path.
pub type CliResult = Result<(), CliError>;

/// The exit status of an interrupted command: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

#[derive(Debug)]
pub enum CliError {
    /// Bad input: FEN, illegal position, moves, depth, sizes. Exit 2.
    Input(anyhow::Error),
    /// Something failed while running. Exit 1.
    Runtime(anyhow::Error),
    /// Two results that should agree differ (`--cross-check`, a plan's units). Exit 3.
    Mismatch(anyhow::Error),
    /// A plan has units without a result, so there is no total yet. Exit 4.
    Incomplete(anyhow::Error),
    /// `hunt` found where the engine under test goes wrong (the report is printed). Exit 5.
    DifferenceFound,
    /// `suite` found wrong counts (the report is printed); says how many. Exit 5.
    SuiteFailed(String),
    /// A plan's total falls short of the trust `work merge --require` demands. Exit 6.
    Untrusted(anyhow::Error),
    /// Ctrl-C stopped the command before its total; what was known when it stopped: how long
    /// the interrupted run had taken and the nodes it had counted. Exit 130.
    Interrupted {
        elapsed: Option<Duration>,
        nodes: Option<u128>,
    },
}

impl CliError {
    pub fn input(err: impl Into<anyhow::Error>) -> CliError {
        CliError::Input(err.into())
    }

    pub fn runtime(err: impl Into<anyhow::Error>) -> CliError {
        CliError::Runtime(err.into())
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Runtime(_) => 1,
            CliError::Mismatch(_) => 3,
            CliError::Incomplete(_) => 4,
            CliError::DifferenceFound | CliError::SuiteFailed(_) => 5,
            CliError::Untrusted(_) => 6,
            CliError::Interrupted { .. } => INTERRUPTED_EXIT_CODE,
        }
    }
}

/// What the user can change, for errors caused by what they asked for; `None` for failures
/// of the run itself.
fn flag_hint(error: &EngineError) -> Option<&'static str> {
    Some(match error {
        EngineError::DepthOutOfRange { .. } => "choose a smaller --depth",
        EngineError::Tt(TtError::ModeOff) => "--tt off needs no table",
        EngineError::Tt(TtError::ZeroSize { .. }) => {
            "give --tt-mb a positive size, or use --tt off"
        }
        EngineError::Tt(TtError::TooSmall { .. }) => "give --tt-mb a larger size",
        EngineError::Tt(TtError::VerifierBits { .. }) => "--verifier-bits takes 8 to 64",
        EngineError::Tt(TtError::MoreThanAvailable { .. } | TtError::AllocationFailed { .. })
        | EngineError::Gpu(
            GpuError::TableTooLarge { .. }
            | GpuError::TableAllocationFailed { .. }
            | GpuError::TooManySegments { .. },
        ) => "choose a smaller --tt-mb",
        EngineError::Gpu(GpuError::LacksTableFeatures { .. }) => "use --tt off, or --backend cpu",
        EngineError::Gpu(GpuError::NoSuchDevice { .. } | GpuError::DeviceUnsuitable { .. }) => {
            "`vkperft devices` lists the devices --device can choose"
        }
        EngineError::Gpu(GpuError::BudgetTooSmall { .. }) => "give --gpu-mem-mb a larger size",
        EngineError::Gpu(GpuError::BadOverride { .. }) => "unset it, or give it one",
        EngineError::Gpu(_) | EngineError::Backend(_) | EngineError::Panicked(_) => return None,
    })
}

impl From<EngineError> for CliError {
    fn from(error: EngineError) -> CliError {
        match flag_hint(&error) {
            Some(hint) => CliError::input(anyhow::anyhow!("{error}; {hint}")),
            None => CliError::runtime(error),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // `{:#}` prints the whole context chain on one line.
            CliError::Input(err)
            | CliError::Runtime(err)
            | CliError::Mismatch(err)
            | CliError::Incomplete(err)
            | CliError::Untrusted(err) => {
                write!(f, "{err:#}")
            }
            CliError::DifferenceFound => write!(f, "the engine under test differs from vkperft"),
            CliError::SuiteFailed(what) => write!(f, "{what}"),
            CliError::Interrupted { elapsed, nodes } => {
                write!(f, "interrupted")?;
                if let Some(elapsed) = elapsed {
                    write!(f, " after {:.1} s", elapsed.as_secs_f64())?;
                }
                match nodes {
                    Some(nodes) => write!(f, ": {} nodes counted, no total", thousands(*nodes)),
                    None => write!(f, ": no total"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vkperft::tt::TtMode;

    #[test]
    fn requests_that_cannot_be_met_name_their_flag_and_exit_2() {
        let cases = [
            (
                EngineError::Tt(TtError::ZeroSize { mode: TtMode::Fast }),
                "--tt-mb",
            ),
            (
                EngineError::Tt(TtError::VerifierBits { bits: 7 }),
                "--verifier-bits",
            ),
            (
                EngineError::Gpu(GpuError::TableTooLarge {
                    needed: 1 << 40,
                    available: 1 << 30,
                    device: "a GPU".into(),
                }),
                "--tt-mb",
            ),
            (
                EngineError::Gpu(GpuError::NoSuchDevice { index: 9, count: 1 }),
                "--device",
            ),
            (
                EngineError::Gpu(GpuError::BudgetTooSmall {
                    mb: 0,
                    needed_mb: 1,
                }),
                "--gpu-mem-mb",
            ),
        ];
        for (error, flag) in cases {
            let cli = CliError::from(error);
            assert_eq!(cli.exit_code(), 2, "{cli}");
            assert!(cli.to_string().contains(flag), "{cli}");
        }
    }

    #[test]
    fn failures_of_the_run_exit_1() {
        for error in [
            EngineError::Panicked("index out of bounds".into()),
            EngineError::Gpu(GpuError::DeviceLost),
        ] {
            let cli = CliError::from(error);
            assert_eq!(cli.exit_code(), 1, "{cli}");
        }
        let panicked = CliError::from(EngineError::Panicked("index out of bounds".into()));
        assert!(panicked
            .to_string()
            .contains("internal error: index out of bounds"));
    }

    #[test]
    fn an_interruption_exits_130_and_says_what_was_counted() {
        let cases = [
            (
                Some(Duration::from_millis(2_345)),
                Some(1_234_567),
                "interrupted after 2.3 s: 1,234,567 nodes counted, no total",
            ),
            (
                Some(Duration::from_millis(400)),
                None,
                "interrupted after 0.4 s: no total",
            ),
            (None, None, "interrupted: no total"),
        ];
        for (elapsed, nodes, text) in cases {
            let cli = CliError::Interrupted { elapsed, nodes };
            assert_eq!(cli.exit_code(), 130);
            assert_eq!(cli.to_string(), text);
        }
    }
}
