//! How the generator looks up slider attacks: by magic multiplication everywhere, or by PEXT
//! where the CPU has BMI2 and it is fast. The choice is made once per run, at run time; each
//! kind gets its own copy of the whole recursion, so that PEXT is inlined in a function
//! compiled for BMI2 while the release build still runs on any x86-64-v2 CPU.
//!
//! The PEXT build also enables BMI1, LZCNT and AVX2 (every CPU with BMI2 has them; x86-64-v3
//! without FMA and MOVBE), for shorter bit loops and wider board copies.
//!
//! This module has the generator's unsafe code: calling a function compiled for those
//! features, which is sound only on a CPU that has them ([`Pext`] can be made only after
//! `is_x86_feature_detected!` said yes for each), and the attack-set load without a bounds
//! check, whose index is below the square's table length by construction.

use super::board::Board;
use super::flags::{Flag, Side};
use super::leaf_stats::LeafStats;
use super::lookup::Sliders;
use super::node;
use super::slider_lookup::{bmi2_present, SliderLookup};
use super::stats;
use super::tables::{Leapers, SliderSquare, SliderTable};
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

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
        node::perft::<Self, S, E, C>(self, board, depth)
    }

    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    ) {
        stats::add_perft_stats::<Self, S, E, C>(self, board, depth, total);
    }

    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool {
        stats::any_legal_move::<Self, S, E, C>(self, board)
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

/// PEXT of the occupancy by the relevant mask: one instruction on CPUs with BMI2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Pext {
    leapers: &'static Leapers,
    table: &'static SliderTable,
}

#[cfg(target_arch = "x86_64")]
impl Pext {
    /// PEXT lookups, if they are the lookup chosen for this CPU ([`SliderLookup::detect`]);
    /// never without BMI2, whatever was chosen, since the BMI2 build is unsound there.
    pub fn detect() -> Option<Pext> {
        static DETECTED: OnceLock<Option<Pext>> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let chosen = SliderLookup::detect() == SliderLookup::Pext && bmi2_present();
            chosen.then(|| Pext {
                leapers: Leapers::get(),
                table: SliderTable::pext(),
            })
        })
    }
}

#[cfg(target_arch = "x86_64")]
impl Sliders for Pext {
    #[inline(always)]
    fn leapers(self) -> &'static Leapers {
        self.leapers
    }

    #[inline(always)]
    fn index(square: &SliderSquare, occupied: Bitboard) -> usize {
        pext(occupied.0, square.mask)
    }

    #[inline(always)]
    fn perft<S: Side, E: Flag, C: Flag>(self, board: &Board, depth: u32) -> u64 {
        // SAFETY: a `Pext` exists only where `perft_bmi2`'s features were detected.
        unsafe { perft_bmi2::<S, E, C>(self, board, depth) }
    }

    #[inline(always)]
    fn add_perft_stats<S: Side, E: Flag, C: Flag>(
        self,
        board: &Board,
        depth: u32,
        total: &mut LeafStats,
    ) {
        // SAFETY: a `Pext` exists only where `add_perft_stats_bmi2`'s features were detected.
        unsafe { add_perft_stats_bmi2::<S, E, C>(self, board, depth, total) }
    }

    #[inline(always)]
    fn any_legal_move<S: Side, E: Flag, C: Flag>(self, board: &Board) -> bool {
        // SAFETY: a `Pext` exists only where `any_legal_move_bmi2`'s features were detected.
        unsafe { any_legal_move_bmi2::<S, E, C>(self, board) }
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
    // SAFETY: only reached from `perft_bmi2`, on a CPU with BMI2 (see `Pext`).
    unsafe { std::arch::x86_64::_pext_u64(value, mask) as usize }
}

/// The node function compiled with BMI2 (and the features beside it), calling itself for the
/// children.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn perft_bmi2<S: Side, E: Flag, C: Flag>(sliders: Pext, board: &Board, depth: u32) -> u64 {
    node::perft::<Pext, S, E, C>(sliders, board, depth)
}

/// The statistics perft compiled with BMI2, as [`perft_bmi2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn add_perft_stats_bmi2<S: Side, E: Flag, C: Flag>(
    sliders: Pext,
    board: &Board,
    depth: u32,
    total: &mut LeafStats,
) {
    stats::add_perft_stats::<Pext, S, E, C>(sliders, board, depth, total);
}

/// The test for a legal move compiled with BMI2, as [`perft_bmi2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,avx2")]
fn any_legal_move_bmi2<S: Side, E: Flag, C: Flag>(sliders: Pext, board: &Board) -> bool {
    stats::any_legal_move::<Pext, S, E, C>(sliders, board)
}
