//! Perft by a move generator specialised at compile time: each node function is compiled for
//! its side to move, for whether an en passant capture may exist and for whether any castling
//! right is left ([`flags`]), and for the slider lookup chosen at run time ([`sliders`]: PEXT
//! where the CPU has fast BMI2, magic bitboards elsewhere). Moves are made on a copy of a small
//! board ([`board`]) and the last ply is counted with popcounts ([`node`]). The same
//! recursion counts the move-type statistics of the last ply in bulk ([`stats`]), and at the
//! penultimate ply adds the null board's for the moves that keep them ([`neutral_stats`]).
//!
//! [`crate::chess::movegen`] stays the reference: the tests compare the two on random
//! positions for every combination of the compile-time parameters.

mod board;
mod children;
mod flags;
mod key_board;
mod leaf_count;
mod leaf_stats;
mod lookup;
mod neutral_stats;
mod node;
mod null_replies;
mod placement_hash;
mod recursion;
mod slider_lookup;
// Calls into the BMI2 build of the generator, and attack-set loads without a bounds check
// (see the module's safety arguments).
#[allow(unsafe_code)]
mod sliders;
mod stats;
mod tables;
mod witnesses;

use super::move_stats::MoveStats;
use super::movegen::legal_moves;
use super::position::Position;
use super::square::Square;
use super::types::Color;
use board::Board;
pub use children::{for_each_child, for_each_child_in, ChildSink};
use flags::{Black, No, Side, White, Yes};
use leaf_count::add_leaf_count_ops;
pub use leaf_count::{leaf_count_ops, null_counted};
use leaf_stats::LeafStats;
use lookup::Sliders;
use node::Subtree;
pub use placement_hash::placement_hash;
pub use slider_lookup::{SliderLookup, SLIDERS_VARIABLE};

/// Builds the tables of the fastest slider lookup now, so that timing a run does not include
/// them.
pub fn init() {
    match SliderLookup::detect() {
        SliderLookup::Pext => {
            #[cfg(target_arch = "x86_64")]
            sliders::Pext::on_this_cpu();
        }
        SliderLookup::Magic | SliderLookup::PortableMagic => {
            sliders::Magic::new();
        }
    }
}

/// The deepest subtree counted in a `u64`: at most 218 legal moves in a position (the most
/// known; the material check keeps positions within it), and 218^8 < 2^64.
const MAX_U64_DEPTH: u32 = 8;

/// Perft of `pos` to `depth`, with bulk counting at the last ply, using the fastest slider
/// lookup this CPU has.
pub fn perft(pos: &Position, depth: u32) -> u128 {
    perft_with(pos, depth, SliderLookup::detect())
}

/// Perft of `pos` to `depth` with the given slider lookup; where the CPU lacks BMI2, `Pext`
/// and `Magic` fall back to the portable build's magics.
pub fn perft_with(pos: &Position, depth: u32, lookup: SliderLookup) -> u128 {
    if depth == 0 {
        return 1;
    }
    if depth > MAX_U64_DEPTH {
        return legal_moves(pos)
            .iter()
            .map(|&m| perft_with(&pos.play(m), depth - 1, lookup))
            .sum();
    }
    u128::from(root_with::<u64>(pos, depth, lookup))
}

/// Perft of `pos` to `depth` with the move-type statistics of its lines' last moves, equal to
/// [`crate::chess::perft::perft_stats`], using the fastest slider lookup this CPU has.
pub fn perft_stats(pos: &Position, depth: u32) -> (u128, MoveStats) {
    perft_stats_with(pos, depth, SliderLookup::detect())
}

/// [`perft_stats`] with the given slider lookup, as [`perft_with`].
pub fn perft_stats_with(pos: &Position, depth: u32, lookup: SliderLookup) -> (u128, MoveStats) {
    if depth == 0 {
        return (1, MoveStats::default());
    }
    if depth > MAX_U64_DEPTH {
        return legal_moves(pos)
            .iter()
            .map(|&m| perft_stats_with(&pos.play(m), depth - 1, lookup))
            .fold((0, MoveStats::default()), |(n, s), (cn, cs)| {
                (n + cn, s + cs)
            });
    }
    root_with::<LeafStats>(pos, depth, lookup).into_totals()
}

/// The subtree of `pos`, `1..=MAX_U64_DEPTH` plies deep, with the given slider lookup.
fn root_with<T: Subtree>(pos: &Position, depth: u32, lookup: SliderLookup) -> T {
    #[cfg(target_arch = "x86_64")]
    match lookup {
        SliderLookup::Pext => {
            if let Some(pext) = sliders::Pext::on_this_cpu() {
                return root(pext, pos, depth);
            }
        }
        SliderLookup::Magic => {
            if let Some(magic) = sliders::MagicBmi2::on_this_cpu() {
                return root(magic, pos, depth);
            }
        }
        SliderLookup::PortableMagic => {}
    }
    root(sliders::Magic::new(), pos, depth)
}

/// Enters the node function compiled for the root's flags.
fn root<L: Sliders, T: Subtree>(sliders: L, pos: &Position, depth: u32) -> T {
    if depth == 1 {
        add_leaf_count_ops(1);
    }
    let board = Board::from_position(pos);
    match pos.turn() {
        Color::White => root_for_side::<L, White, T>(sliders, pos, &board, depth),
        Color::Black => root_for_side::<L, Black, T>(sliders, pos, &board, depth),
    }
}

fn root_for_side<L: Sliders, S: Side, T: Subtree>(
    sliders: L,
    pos: &Position,
    board: &Board,
    depth: u32,
) -> T {
    let mut total = T::default();
    match (pos.ep_square().is_some(), pos.castling_rooks().any()) {
        (false, false) => total.add_below::<L, S, No, No>(sliders, board, depth),
        (false, true) => total.add_below::<L, S, No, Yes>(sliders, board, depth),
        (true, false) => total.add_below::<L, S, Yes, No>(sliders, board, depth),
        (true, true) => total.add_below::<L, S, Yes, Yes>(sliders, board, depth),
    }
    total
}

/// The moves of `pos`, as origin and target, that a node two plies above the leaves counts by
/// the replies of the board with the turn passed instead of making them ([`null_replies`]);
/// `None` when the side to move is in check and every move is made.
pub fn neutral_moves(pos: &Position) -> Option<Vec<(Square, Square)>> {
    let sliders = sliders::Magic::new();
    let board = Board::from_position(pos);
    match pos.turn() {
        Color::White => neutral_moves_for::<_, White>(sliders, pos, &board),
        Color::Black => neutral_moves_for::<_, Black>(sliders, pos, &board),
    }
}

fn neutral_moves_for<L: Sliders, S: Side>(
    sliders: L,
    pos: &Position,
    board: &Board,
) -> Option<Vec<(Square, Square)>> {
    match (pos.ep_square().is_some(), pos.castling_rooks().any()) {
        (false, false) => null_replies::list_neutral::<L, S, No, No>(sliders, board),
        (false, true) => null_replies::list_neutral::<L, S, No, Yes>(sliders, board),
        (true, false) => null_replies::list_neutral::<L, S, Yes, No>(sliders, board),
        (true, true) => null_replies::list_neutral::<L, S, Yes, Yes>(sliders, board),
    }
}

/// The moves of `pos`, as origin and target, that a statistics perft's node two plies above
/// the leaves counts by the last-ply statistics of the board with the turn passed instead of
/// making them ([`neutral_stats`]); `None` when the node makes every move.
pub fn stats_neutral_moves(pos: &Position) -> Option<Vec<(Square, Square)>> {
    let sliders = sliders::Magic::new();
    let board = Board::from_position(pos);
    match pos.turn() {
        Color::White => stats_neutral_moves_for::<_, White>(sliders, pos, &board),
        Color::Black => stats_neutral_moves_for::<_, Black>(sliders, pos, &board),
    }
}

fn stats_neutral_moves_for<L: Sliders, S: Side>(
    sliders: L,
    pos: &Position,
    board: &Board,
) -> Option<Vec<(Square, Square)>> {
    match (pos.ep_square().is_some(), pos.castling_rooks().any()) {
        (false, false) => neutral_stats::list_stats_neutral::<L, S, No, No>(sliders, board),
        (false, true) => neutral_stats::list_stats_neutral::<L, S, No, Yes>(sliders, board),
        (true, false) => neutral_stats::list_stats_neutral::<L, S, Yes, No>(sliders, board),
        (true, true) => neutral_stats::list_stats_neutral::<L, S, Yes, Yes>(sliders, board),
    }
}

/// The compile-time parameters a position enters the generator with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeParameters {
    pub white_to_move: bool,
    pub en_passant: bool,
    pub castling: bool,
}

impl NodeParameters {
    pub fn of(pos: &Position) -> NodeParameters {
        NodeParameters {
            white_to_move: pos.turn() == Color::White,
            en_passant: pos.ep_square().is_some(),
            castling: pos.castling_rooks().any(),
        }
    }
}
