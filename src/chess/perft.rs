//! Single-thread reference perft: plain recursion with bulk counting at depth 1.

use crate::chess::movegen::{count_legal, legal_moves};
use crate::chess::{Move, Position};

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
