//! What can be wrong with a suite file: it cannot be read, or a line of it is not part of any
//! suite format. Every error names the file and, for a line, its number.

use crate::chess::fen::FenError;
use crate::chess::MoveStat;
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// A line of a suite file: the file as the user named it, and the line's number from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// Why a line is not part of a suite.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineProblem {
    #[error("{0}")]
    Fen(FenError),
    #[error("depth {0:?} is not a whole number from 1")]
    BadDepth(String),
    #[error("node count {0:?} is not a whole number")]
    BadCount(String),
    #[error("depth {depth} is given twice for this position")]
    RepeatedDepth { depth: u32 },
    #[error(
        "EPD operation {0:?} has no count (expected `D<depth> <nodes>`, or `D<depth>.<key> \
         <value>` for a statistic)"
    )]
    MissingCount(String),
    #[error(
        "{0:?} is no statistics column (expected a key of `perft --stats --json`: {keys})",
        keys = stat_keys()
    )]
    UnknownStat(String),
    #[error("statistic {key} is given twice at depth {depth} for this position")]
    RepeatedStat { depth: u32, key: &'static str },
    #[error("`perft` before any `epd` line")]
    PerftWithoutPosition,
    #[error("`{0}` is not a line of a .perft file (expected `id`, `epd` or `perft`)")]
    UnknownKeyword(String),
    #[error("{found} tab-separated fields; expected FEN, depth and nodes (or an id before them)")]
    FieldCount { found: usize },
    #[error("the header names no FEN column (fen, xfen, shredder_fen or epd)")]
    NoFenColumn,
    #[error("the header names neither depth and nodes columns nor perft<N> columns")]
    NoCountColumns,
    #[error("{found} fields where the header names {expected}")]
    HeaderMismatch { found: usize, expected: usize },
}

/// Every statistics column's key, for the error that names none of them.
fn stat_keys() -> String {
    MoveStat::ALL.map(MoveStat::key).join(", ")
}

/// A suite file that cannot be run.
#[derive(Debug, Error)]
pub enum SuiteError {
    #[error("cannot read {}: {reason}", file.display())]
    Read { file: PathBuf, reason: String },
    #[error("{location}: {problem}")]
    BadLine {
        location: Location,
        problem: LineProblem,
    },
    #[error("{} holds no positions", file.display())]
    Empty { file: PathBuf },
}
