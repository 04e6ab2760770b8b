//! vkperft's side of a comparison.

use crate::backend::run_control::RunControl;
use crate::chess::{Move, Position, Zobrist};
use crate::cpu::parallel;
use crate::cpu::search::PlainSearch;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// vkperft's divide of `position` to `depth`: the CPU backend on `threads` threads, no table
/// (exact by construction, and quick at the depths a hunt compares).
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
