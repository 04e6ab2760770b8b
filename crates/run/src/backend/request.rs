//! What a backend is asked to compute: a position, a depth and the CPU threads it may use;
//! how to get there (which backend, which device, which table) is the engine's business.

use crate::chess::Position;

/// The deepest perft accepted: far beyond what finishes, and within the Zobrist depth keys.
pub const MAX_DEPTH: u32 = 30;
// Every remaining depth of a run has its own table entries and statistics.
const _: () = assert!(MAX_DEPTH <= crate::tt::MAX_TABLE_DEPTH);

/// Perft of `position` to `depth` (at most [`MAX_DEPTH`]).
#[derive(Clone, Copy, Debug)]
pub struct RunRequest {
    pub position: Position,
    pub depth: u32,
    /// CPU threads; at least 1.
    pub threads: usize,
    /// Count the move-type statistics of the lines' last moves too (`--stats`); a backend that
    /// cannot refuses the run ([`super::BackendError::Unsupported`]).
    pub move_stats: bool,
}
