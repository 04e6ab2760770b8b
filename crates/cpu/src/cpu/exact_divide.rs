//! vkperft's side of a comparison with another engine: the divide a hunt, a suite and the
//! window's engine check hold the engine's against.

use super::parallel;
use super::search::PlainSearch;
use crate::backend::run_control::RunControl;
use crate::chess::{Move, Position, Zobrist};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// vkperft's divide of `position` to `depth`: the parallel driver on `threads` threads, no
/// table (exact by construction, and quick at the depths a hunt compares).
pub fn exact_divide(position: &Position, depth: u32, threads: usize) -> Vec<(Move, u128)> {
    let never = AtomicBool::new(false);
    let control = RunControl {
        cancel: &never,
        progress_interval: Duration::MAX,
        on_progress: &|_| {},
        on_root_done: &|_, _| {},
    };
    parallel::divide(
        position,
        depth,
        threads,
        &PlainSearch,
        &Zobrist::default(),
        &control,
    )
    .map(|divide| {
        divide
            .into_iter()
            .map(|(m, counts)| (m, counts.nodes))
            .collect()
    })
    .unwrap_or_default()
}
