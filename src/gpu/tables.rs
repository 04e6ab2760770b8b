//! The line table the shaders read, laid out as `shader_layout::TABLE_*` says, from the same
//! data as the CPU move generator.

use super::shader_layout::TABLE_LINE;
use crate::chess::{attacks, Square};

pub fn table_words() -> Vec<u64> {
    let mut words = vec![0u64; TABLE_LINE as usize + 64 * 64];
    for sq in Square::all() {
        for other in Square::all() {
            let j = sq.index() * 64 + other.index();
            words[TABLE_LINE as usize + j] = attacks::line(sq, other).0;
        }
    }
    words
}
