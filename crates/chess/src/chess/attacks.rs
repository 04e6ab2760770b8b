//! Attack tables: leaper lookups, magic-bitboard sliders, and the `between`/`line` rays that
//! pin and check masks are built from.
//!
//! The magic multipliers are searched for by `build.rs` (see [`super::magic_search`]); the
//! tables are filled from them at first use, in a few milliseconds.

use super::bitboard::Bitboard;
use super::magic_search::{
    offset_square, ray_attacks, relevant_mask, subsets, BISHOP_DIRS, ROOK_DIRS,
};
use super::square::Square;
use super::types::Color;
use std::sync::OnceLock;

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// One square's magic: `attacks[offset + ((occ & mask) * magic) >> shift]` (the GPU's lookups
/// read copies of these, `crates/gpu/src/gpu/tables.rs`).
#[derive(Clone, Copy, Default)]
pub struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    slider_attacks: Vec<u64>,
    /// Squares strictly between two aligned squares, else empty.
    between: Vec<u64>,
    /// The whole line through two aligned squares (edge to edge), else empty.
    line: Vec<u64>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline]
fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

fn step_attacks(sq: usize, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&d| offset_square(sq, d))
        .fold(0, |bb, to| bb | 1 << to)
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/magics.rs"));
}

/// Lays out one slider's attack sets for all 64 squares in `table`.
fn fill_magics(dirs: &[(i8, i8); 4], magics: &[u64; 64], table: &mut Vec<u64>) -> [Magic; 64] {
    let mut out = [Magic::default(); 64];
    for (sq, slot) in out.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let shift = 64 - mask.count_ones();
        let offset = table.len();
        table.resize(offset + (1 << mask.count_ones()), 0);
        for occ in subsets(mask) {
            let index = (occ.wrapping_mul(magics[sq]) >> shift) as usize;
            table[offset + index] = ray_attacks(sq, occ, dirs);
        }
        *slot = Magic {
            mask,
            magic: magics[sq],
            shift,
            offset: offset as u32,
        };
    }
    out
}

impl Tables {
    fn build() -> Tables {
        let mut knight = [0; 64];
        let mut king = [0; 64];
        let mut pawn = [[0; 64]; 2];
        for sq in 0..64 {
            knight[sq] = step_attacks(sq, &KNIGHT_STEPS);
            king[sq] = step_attacks(sq, &KING_STEPS);
            pawn[0][sq] = step_attacks(sq, &[(-1, 1), (1, 1)]);
            pawn[1][sq] = step_attacks(sq, &[(-1, -1), (1, -1)]);
        }
        let mut slider_attacks = Vec::new();
        let rook_magics = fill_magics(&ROOK_DIRS, &generated::ROOK_MAGICS, &mut slider_attacks);
        let bishop_magics =
            fill_magics(&BISHOP_DIRS, &generated::BISHOP_MAGICS, &mut slider_attacks);

        let mut between = vec![0u64; 64 * 64];
        let mut line = vec![0u64; 64 * 64];
        for a in 0..64 {
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                let from_a = ray_attacks(a, 0, dirs);
                for b in 0..64 {
                    if from_a >> b & 1 == 0 {
                        continue;
                    }
                    let from_b = ray_attacks(b, 0, dirs);
                    // The other lines through `a` and through `b` are parallel, so the
                    // intersection is exactly the common line without its two squares.
                    line[a * 64 + b] = (from_a & from_b) | 1 << a | 1 << b;
                    between[a * 64 + b] =
                        ray_attacks(a, 1 << b, dirs) & ray_attacks(b, 1 << a, dirs);
                }
            }
        }
        Tables {
            knight,
            king,
            pawn,
            rook_magics,
            bishop_magics,
            slider_attacks,
            between,
            line,
        }
    }
}

#[inline]
fn magic_lookup(t: &Tables, magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    Bitboard(t.slider_attacks[magic.offset as usize + index])
}

#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(tables().knight[sq.index()])
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(tables().king[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables().pawn[color.index()][sq.index()])
}

#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    magic_lookup(t, &t.rook_magics[sq.index()], occupied)
}

#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    magic_lookup(t, &t.bishop_magics[sq.index()], occupied)
}

#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().between[a.index() * 64 + b.index()])
}

/// The full line through `a` and `b` (edge to edge) when aligned, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().line[a.index() * 64 + b.index()])
}

/// The rooks' magics by square, indexing [`slider_attack_sets`].
pub fn rook_magics() -> &'static [Magic; 64] {
    &tables().rook_magics
}

/// The bishops' magics by square, indexing [`slider_attack_sets`].
pub fn bishop_magics() -> &'static [Magic; 64] {
    &tables().bishop_magics
}

/// The attack sets every magic indexes, rooks' then bishops'.
pub fn slider_attack_sets() -> &'static [u64] {
    &tables().slider_attacks
}

/// Builds the tables now, so that timing a run does not include the magic search.
pub fn init() {
    tables();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::rng::SplitMix64;

    #[test]
    fn magic_lookups_match_ray_walks() {
        let mut rng = SplitMix64::new(42);
        for sq in 0..64u8 {
            for _ in 0..200 {
                let occ = rng.next_u64() & rng.next_u64();
                let s = Square::new(sq);
                assert_eq!(
                    rook(s, Bitboard(occ)).0,
                    ray_attacks(sq as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop(s, Bitboard(occ)).0,
                    ray_attacks(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn between_and_line() {
        let b1 = Square::B1;
        let g1 = Square::G1;
        assert_eq!(between(b1, g1).count(), 4);
        assert_eq!(line(b1, g1), Bitboard::RANK_1);
        let a1 = Square::A1;
        let h8 = Square::H8;
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, Square::new(9)).count(), 8);
        assert!(between(a1, Square::new(10)).is_empty());
        assert!(line(a1, Square::new(10)).is_empty());
    }
}
