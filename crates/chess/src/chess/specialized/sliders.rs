//! How the generator looks up slider attacks: by magic multiplication everywhere, or by PEXT
//! where the CPU has BMI2 and it is fast. The choice is made once per run, at run time; each
//! kind gets its own copy of the whole recursion, so that PEXT is inlined in a function
//! compiled for BMI2 while the release build still runs on any x86-64-v2 CPU.
//!
//! The BMI2 build also enables BMI1, LZCNT and AVX2 (every CPU with BMI2 has them; x86-64-v3
//! without FMA and MOVBE), for shorter bit loops and wider board copies; magics run in it too
//! where PEXT is slow ([`MagicBmi2`]), and in the portable build ([`Magic`]) elsewhere.
//!
//! This module has the generator's unsafe code: calling a function compiled for those
//! features, which is sound only on a CPU that has them ([`Bmi2`] can be made only after
//! `is_x86_feature_detected!` said yes for each), and the attack-set load without a bounds
//! check, whose index is below the square's table length by construction.

use super::board::Board;
use super::flags::{Flag, Side};
use super::leaf_stats::LeafStats;
use super::lookup::{OutOfLine, Sliders};
use super::node;
use super::recursion;
#[cfg(target_arch = "x86_64")]
use super::slider_lookup::bmi2_present;
use super::stats;
use super::tables::{Leapers, SliderSquare, SliderTable};
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;
#[cfg(target_arch = "x86_64")]
use std::marker::PhantomData;

/// The attack set of `square`'s slider with `occupied`, without a bounds check: this is the
/// hottest load of the generator.
#[inline(always)]
fn attacks_at<L: Sliders>(square: &SliderSquare, occupied: Bitboard) -> Bitboard {
    let index = L::index(square, occupied);
    debug_assert!(index < square.attacks.len());
    // SAFETY: both indexes are below 2^popcount(mask): a magic index is the product shifted
    // right by 64 - popcount(mask), a PEXT index has popcount(mask) bits. `SliderTable::build`
    // gives each square exactly that many attack sets and asserts the shift.
    unsafe { *square.attacks.get_unchecked(index) }
}

/// Magic bitboards: a multiply and a shift; any x86-64 (or other) CPU.
#[derive(Clone, Copy)]
pub struct Magic {
    leapers: &'static Leapers,
    table: &'static SliderTable,
}

impl Magic {
    pub fn new() -> Magic {
        Magic {
            leapers: Leapers::get(),
            table: SliderTable::magic(),
        }
    }
}

impl Sliders for Magic {
    #[inline(always)]
    fn leapers(self) -> &'static Leapers {
        self.leapers
    }

    #[inline(always)]
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize {
        square.magic_index(occupied)
    }

    fn perft<S: Side, E: Flag, C: Flag>(self, board: &Board, depth: u32) -> u64 {
        recursion::perft::<Self, S, E, C>(self, board, depth)
    }

    #[inline(never)]
    fn leaf_count<S: Side, E: Flag, C: Flag>(self, board: &Board) -> u64 {
        node::leaf_count::<Self, S, E, C>(self, board)
    }

    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    ) {
        stats::add_perft_stats::<Self, S, E, C>(self, board, depth, total);
    }

    #[inline(never)]
    fn add_last_ply_stats<S: Side, E: Flag, C: Flag>(self, board: &Board, total: &mut LeafStats) {
        stats::add_last_ply_stats::<Self, S, E, C>(self, board, total);
    }

    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool {
        stats::any_legal_move::<Self, S, E, C>(self, board)
    }

    #[inline(never)]
    fn out_of_line<W: OutOfLine>(self, work: &mut W) {
        work.run();
    }

    #[inline(always)]
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard {
        attacks_at::<Self>(self.table.rook_square(sq), occupied)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard {
        attacks_at::<Self>(self.table.bishop_square(sq), occupied)
    }
}

/// How the BMI2 build indexes a square's attack sets.
#[cfg(target_arch = "x86_64")]
pub trait Bmi2Index: 'static {
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize;
    /// The attack sets laid out for this index.
    fn table() -> &'static SliderTable;
}

/// PEXT of the occupancy by the relevant mask: one instruction on CPUs with BMI2 (microcode,
/// slower than a multiply, on AMD before Zen 3).
#[cfg(target_arch = "x86_64")]
pub enum ByPext {}

#[cfg(target_arch = "x86_64")]
impl Bmi2Index for ByPext {
    #[inline(always)]
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize {
        pext(occupied.0, square.mask)
    }

    fn table() -> &'static SliderTable {
        SliderTable::pext()
    }
}

/// A magic multiply, where PEXT is slow but the rest of BMI2 (and BMI1, LZCNT, AVX2) is not.
#[cfg(target_arch = "x86_64")]
pub enum ByMagic {}

#[cfg(target_arch = "x86_64")]
impl Bmi2Index for ByMagic {
    #[inline(always)]
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize {
        square.magic_index(occupied)
    }

    fn table() -> &'static SliderTable {
        SliderTable::magic()
    }
}

/// The recursion compiled for BMI2, BMI1, LZCNT and AVX2, with slider sets indexed by `I`.
#[cfg(target_arch = "x86_64")]
pub struct Bmi2<I> {
    leapers: &'static Leapers,
    table: &'static SliderTable,
    index: PhantomData<I>,
}

#[cfg(target_arch = "x86_64")]
impl<I> Clone for Bmi2<I> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(target_arch = "x86_64")]
impl<I> Copy for Bmi2<I> {}

/// PEXT lookups in the BMI2 build.
#[cfg(target_arch = "x86_64")]
pub type Pext = Bmi2<ByPext>;

/// Magic lookups in the BMI2 build.
#[cfg(target_arch = "x86_64")]
pub type MagicBmi2 = Bmi2<ByMagic>;

#[cfg(target_arch = "x86_64")]
impl<I: Bmi2Index> Bmi2<I> {
    /// The BMI2 build's lookups on a CPU with its instructions; never elsewhere, since the
    /// build is unsound there.
    pub fn on_this_cpu() -> Option<Self> {
        bmi2_present().then(|| Bmi2 {
            leapers: Leapers::get(),
            table: I::table(),
            index: PhantomData,
        })
    }
}

#[cfg(target_arch = "x86_64")]
impl<I: Bmi2Index> Sliders for Bmi2<I> {
    #[inline(always)]
    fn leapers(self) -> &'static Leapers {
        self.leapers
    }

    #[inline(always)]
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize {
        I::index(square, occupied)
    }

    #[inline(always)]
    fn perft<S: Side, E: Flag, C: Flag>(self, board: &Board, depth: u32) -> u64 {
        // SAFETY: a `Bmi2` exists only where `perft_bmi2`'s features were detected.
        unsafe { perft_bmi2::<I, S, E, C>(self, board, depth) }
    }

    #[inline(always)]
    fn leaf_count<S: Side, E: Flag, C: Flag>(self, board: &Board) -> u64 {
        // SAFETY: a `Bmi2` exists only where `leaf_count_bmi2`'s features were detected.
        unsafe { leaf_count_bmi2::<I, S, E, C>(self, board) }
    }

    #[inline(always)]
    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    ) {
        // SAFETY: a `Bmi2` exists only where `add_perft_stats_bmi2`'s features were detected.
        unsafe { add_perft_stats_bmi2::<I, S, E, C>(self, board, depth, total) }
    }

    #[inline(always)]
    fn add_last_ply_stats<S: Side, E: Flag, C: Flag>(self, board: &Board, total: &mut LeafStats) {
        // SAFETY: a `Bmi2` exists only where `add_last_ply_stats_bmi2`'s features were detected.
        unsafe { add_last_ply_stats_bmi2::<I, S, E, C>(self, board, total) }
    }

    #[inline(always)]
    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool {
        // SAFETY: a `Bmi2` exists only where `any_legal_move_bmi2`'s features were detected.
        unsafe { any_legal_move_bmi2::<I, S, E, C>(self, board) }
    }

    #[inline(always)]
    fn out_of_line<W: OutOfLine>(self, work: &mut W) {
        // SAFETY: a `Bmi2` exists only where `out_of_line_bmi2`'s features were detected.
        unsafe { out_of_line_bmi2(work) }
    }

    #[inline(always)]
    fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard {
        attacks_at::<Self>(self.table.rook_square(sq), occupied)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard {
        attacks_at::<Self>(self.table.bishop_square(sq), occupied)
    }
}

/// Inlined into [`perft_bmi2`], where BMI2 is enabled, it compiles to one PEXT instruction.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> usize {
    // SAFETY: only reached from the BMI2 build, on a CPU with BMI2 (see `Bmi2`).
    unsafe { std::arch::x86_64::_pext_u64(value, mask) as usize }
}

/// The node function compiled with BMI2 (and the features beside it), calling itself for the
/// children.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn perft_bmi2<I: Bmi2Index, S: Side, E: Flag, C: Flag>(
    sliders: Bmi2<I>,
    board: &Board,
    depth: u32,
) -> u64 {
    recursion::perft::<Bmi2<I>, S, E, C>(sliders, board, depth)
}

/// The leaf count compiled with BMI2, as [`perft_bmi2`]; never inlined (see
/// [`Sliders::leaf_count`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
#[inline(never)]
fn leaf_count_bmi2<I: Bmi2Index, S: Side, E: Flag, C: Flag>(
    sliders: Bmi2<I>,
    board: &Board,
) -> u64 {
    node::leaf_count::<Bmi2<I>, S, E, C>(sliders, board)
}

/// The statistics perft compiled with BMI2, as [`perft_bmi2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn add_perft_stats_bmi2<I: Bmi2Index, S: Side, E: Flag, C: Flag>(
    sliders: Bmi2<I>,
    board: &Board,
    depth: u32,
    total: &mut LeafStats,
) {
    stats::add_perft_stats::<Bmi2<I>, S, E, C>(sliders, board, depth, total);
}

/// The last ply's statistics compiled with BMI2, as [`perft_bmi2`]; never inlined (see
/// [`Sliders::add_last_ply_stats`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
#[inline(never)]
fn add_last_ply_stats_bmi2<I: Bmi2Index, S: Side, E: Flag, C: Flag>(
    sliders: Bmi2<I>,
    board: &Board,
    total: &mut LeafStats,
) {
    stats::add_last_ply_stats::<Bmi2<I>, S, E, C>(sliders, board, total);
}

/// The test for a legal move compiled with BMI2, as [`perft_bmi2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn any_legal_move_bmi2<I: Bmi2Index, S: Side, E: Flag, C: Flag>(
    sliders: Bmi2<I>,
    board: &Board,
) -> bool {
    stats::any_legal_move::<Bmi2<I>, S, E, C>(sliders, board)
}

/// Work handed out of line, compiled with BMI2 as [`perft_bmi2`]; never inlined, so that the
/// loops that hand it over stay small.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
#[inline(never)]
fn out_of_line_bmi2<W: OutOfLine>(work: &mut W) {
    work.run();
}
