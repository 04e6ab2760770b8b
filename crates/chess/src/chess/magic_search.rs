//! Ray walking and the magic-number search for sliding attacks.
//!
//! This file is compiled twice: by `build.rs`, which searches the magics once at build time and
//! writes them to `OUT_DIR/magics.rs`, and into the library, where [`super::attacks`] fills its
//! lookup tables from those magics with the same ray walks. It depends only on `super::rng`.

use super::rng::SplitMix64;

pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The square one step `(file, rank)` away, if on the board.
pub fn offset_square(sq: usize, (df, dr): (i8, i8)) -> Option<usize> {
    let file = (sq % 8) as i8 + df;
    let rank = (sq / 8) as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

/// Slider attacks by walking rays until the first occupied square (included).
pub fn ray_attacks(sq: usize, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, dir) {
            attacks |= 1 << next;
            if occupied >> next & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// Squares whose occupancy matters for a slider on `sq`: the rays without their last square.
pub fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, dir) {
            if offset_square(next, dir).is_none() {
                break;
            }
            mask |= 1 << next;
            cur = next;
        }
    }
    mask
}

/// Every subset of `mask` (carry-rippler order, starting with the empty set).
pub fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
}

/// A multiplier that maps every occupancy of `sq`'s relevant mask to an index of
/// `popcount(mask)` bits without two different attack sets colliding.
pub fn find_magic(sq: usize, dirs: &[(i8, i8); 4], rng: &mut SplitMix64) -> u64 {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occupancies: Vec<(u64, u64)> = subsets(mask)
        .map(|occ| (occ, ray_attacks(sq, occ, dirs)))
        .collect();
    let mut table = vec![0u64; 1 << bits];
    let mut epoch = vec![0u32; 1 << bits];
    for attempt in 1u32.. {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let fits = occupancies.iter().all(|&(occ, attacks)| {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[index] != attempt {
                epoch[index] = attempt;
                table[index] = attacks;
                true
            } else {
                table[index] == attacks
            }
        });
        if fits {
            return magic;
        }
    }
    unreachable!("the attempt counter cannot run out before a magic is found")
}
