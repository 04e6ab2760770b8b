//! Single-thread reference perft: plain recursion with bulk counting at depth 1.

use super::move_stats::MoveStats;
use super::movegen::{count_legal, legal_moves};
use super::moves::Move;
use super::position::Position;

pub fn perft(pos: &Position, depth: u32) -> u128 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u128,
        _ => legal_moves(pos)
            .iter()
            .map(|&m| perft(&pos.play(m), depth - 1))
            .sum(),
    }
}

/// Perft per root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u128)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

/// Perft of `pos` to `depth` with the move-type statistics of its lines' last moves, each
/// leaf classified by [`MoveStats::of_move`]: the reference the faster counters are checked
/// against. At depth 0 the one line has no last move: no statistics.
pub fn perft_stats(pos: &Position, depth: u32) -> (u128, MoveStats) {
    match depth {
        0 => (1, MoveStats::default()),
        1 => {
            let moves = legal_moves(pos);
            let stats = moves.iter().map(|&m| MoveStats::of_move(pos, m)).sum();
            (moves.len() as u128, stats)
        }
        _ => legal_moves(pos)
            .iter()
            .map(|&m| perft_stats(&pos.play(m), depth - 1))
            .fold((0, MoveStats::default()), |(n, s), (cn, cs)| {
                (n + cn, s + cs)
            }),
    }
}
