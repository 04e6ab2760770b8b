//! The placement hash of a position: a Zobrist hash of its pieces alone (colour, role,
//! square), finalised by MurmurHash3's mixer. A child's hash is its parent's with the moved,
//! captured and promoted pieces' keys XORed in, so the unique-positions expansion tells a
//! child's partition before it makes the child, and makes only the children of the partition
//! it fills. Positions that differ only in castling rights or en passant share the hash, which
//! only puts them in the same partition.

use super::board::Board;
use super::key_board::decode;
use crate::chess::nybble::NybbleBoard;
use crate::chess::square::Square;

/// `KEYS[color][role][square]`, drawn by SplitMix64 from a fixed seed: the same on every
/// machine and in every version of the ply files.
static KEYS: [[[u64; 64]; 6]; 2] = keys();

const fn keys() -> [[[u64; 64]; 6]; 2] {
    let mut keys = [[[0u64; 64]; 6]; 2];
    let mut state = 0x706c_6163_656d_656eu64;
    let mut index = 0;
    while index < 2 * 6 * 64 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[index / 384][index / 64 % 6][index % 64] = z ^ (z >> 31);
        index += 1;
    }
    keys
}

/// The key of a piece of `color` (index) and `role` on `square`.
#[inline(always)]
pub fn piece_key(color: usize, role: usize, square: Square) -> u64 {
    KEYS[color][role][square.index()]
}

/// The XOR of the keys of every piece on `board`: a child's is its parent's with the keys of
/// the squares a move changes XORed in.
#[inline(always)]
pub fn board_keys(board: &Board) -> u64 {
    let mut sum = 0;
    for (color, &pieces) in board.colors.iter().enumerate() {
        for (role, &set) in board.roles.iter().enumerate() {
            for square in set & pieces {
                sum ^= piece_key(color, role, square);
            }
        }
    }
    sum
}

/// The hash of a position whose pieces' keys XOR to `keys`.
#[inline(always)]
pub fn finish(keys: u64) -> u64 {
    let mut h = keys;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// The placement hash of the position `key` describes.
pub fn placement_hash(key: &NybbleBoard) -> u64 {
    finish(board_keys(&decode(key).0))
}
