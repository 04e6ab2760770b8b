//! The tables the shaders read, laid out as `shader_layout::TABLE_*` says, from the same data
//! as the CPU move generator.

use super::shader_layout::{
    TABLE_BETWEEN, TABLE_BISHOP_MAGICS, TABLE_LINE, TABLE_ROOK_MAGICS, TABLE_SLIDER_ATTACKS,
};
use crate::chess::attacks::{self, Magic};
use crate::chess::Square;

/// Rook and bishop attack sets of every square and relevant occupancy.
const SLIDER_ATTACK_WORDS: u32 = 102_400 + 5_248;
const TABLE_WORDS: u32 = TABLE_SLIDER_ATTACKS + SLIDER_ATTACK_WORDS;

pub fn table_words() -> Vec<u64> {
    let mut words = vec![0u64; TABLE_WORDS as usize];
    for sq in Square::all() {
        for other in Square::all() {
            let j = sq.index() * 64 + other.index();
            words[TABLE_LINE as usize + j] = attacks::line(sq, other).0;
            words[TABLE_BETWEEN as usize + j] = attacks::between(sq, other).0;
        }
    }
    for (base, magics) in [
        (TABLE_ROOK_MAGICS, attacks::rook_magics()),
        (TABLE_BISHOP_MAGICS, attacks::bishop_magics()),
    ] {
        for (
            sq,
            &Magic {
                mask,
                magic,
                shift,
                offset,
            },
        ) in magics.iter().enumerate()
        {
            let entry = base as usize + 3 * sq;
            words[entry..entry + 3].copy_from_slice(&[
                mask,
                magic,
                u64::from(offset) << 8 | u64::from(shift),
            ]);
        }
    }
    let sets = attacks::slider_attack_sets();
    assert_eq!(
        sets.len(),
        SLIDER_ATTACK_WORDS as usize,
        "SLIDER_ATTACK_WORDS is the size of the CPU's magic tables"
    );
    words[TABLE_SLIDER_ATTACKS as usize..].copy_from_slice(sets);
    words
}
