//! The node function by remaining depth: the leaf count at one ply, counting without making at
//! two ([`super::null_replies`]), and deeper each move made and its subtree counted.

use super::board::Board;
use super::flags::{Flag, Side};
use super::lookup::Sliders;
use super::node::{generate, Children};
use super::null_replies::perft_two;

/// Perft of `board` to `depth >= 1` with `S` to move; `E`: an en passant capture may exist;
/// `C`: some castling right is left.
#[inline(always)]
pub fn perft<L: Sliders, S: Side, E: Flag, C: Flag>(sliders: L, board: &Board, depth: u32) -> u64 {
    match depth {
        1 => sliders.leaf_count::<S, E, C>(board),
        2 => perft_two::<L, S, E, C>(sliders, board),
        _ => {
            let mut children = Children::<L, S, C, u64>::new(sliders, board, depth - 1);
            generate::<L, S, E, C, _>(sliders, board, &mut children);
            children.total
        }
    }
}
