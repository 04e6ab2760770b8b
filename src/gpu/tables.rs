//! The attack tables the shaders read, laid out as `shader_layout::TABLE_*` says, from the same
//! data as the CPU move generator.

use super::shader_layout::{
    TABLE_BETWEEN, TABLE_KING, TABLE_KNIGHT, TABLE_LINE, TABLE_MAGICS, TABLE_PAWN, TABLE_SLIDERS,
};
use crate::chess::{attacks, Color, Square};

pub fn table_words() -> Vec<u64> {
    let sliders = attacks::slider_attack_sets();
    let mut words = vec![0u64; TABLE_SLIDERS as usize + sliders.len()];
    for sq in Square::all() {
        let i = sq.index();
        words[TABLE_KNIGHT as usize + i] = attacks::knight(sq).0;
        words[TABLE_KING as usize + i] = attacks::king(sq).0;
        words[TABLE_PAWN as usize + i] = attacks::pawn(Color::White, sq).0;
        words[TABLE_PAWN as usize + 64 + i] = attacks::pawn(Color::Black, sq).0;
        for other in Square::all() {
            let j = i * 64 + other.index();
            words[TABLE_BETWEEN as usize + j] = attacks::between(sq, other).0;
            words[TABLE_LINE as usize + j] = attacks::line(sq, other).0;
        }
        for (entry, rook) in [(i, true), (64 + i, false)] {
            let (mask, magic, shift, offset) = attacks::magic_parameters(sq, rook);
            let base = TABLE_MAGICS as usize + entry * 3;
            words[base] = mask;
            words[base + 1] = magic;
            words[base + 2] = u64::from(offset) | u64::from(shift) << 32;
        }
    }
    words[TABLE_SLIDERS as usize..].copy_from_slice(sliders);
    words
}
