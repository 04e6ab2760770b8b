//! CLI errors and their exit codes.

use std::fmt;

#[derive(Debug)]
pub enum CliError {
    /// Bad input: FEN, illegal position, moves, depth, sizes. Exit 2.
    Input(anyhow::Error),
    /// Something failed while running. Exit 1.
    Runtime(anyhow::Error),
    /// `--cross-check` found two different totals. Exit 3.
    Mismatch(anyhow::Error),
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
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let err = match self {
            CliError::Input(err) | CliError::Runtime(err) | CliError::Mismatch(err) => err,
        };
        // `{:#}` prints the whole context chain on one line.
        write!(f, "{err:#}")
    }
}
