//! The exact key of a position in 24 bytes: the occupied squares (8 bytes) and the 4-bit
//! NybbleBoard codes of those squares only, in square order (at most 32 pieces: 16 bytes). It
//! holds what the 32-byte NybbleBoard holds (placement, side to move, castling rights, the
//! canonical en passant square) without the empty squares' codes, so two positions have equal
//! keys iff they are the same for perft. Each code plane is packed a rank at a time through a
//! 64 KiB table (a portable PEXT and PDEP).

use crate::chess::NybbleBoard;
use std::sync::OnceLock;

/// Bytes of a key.
pub const KEY_BYTES: usize = 24;

/// Occupancy, then planes 3 and 2 of the codes of the occupied squares, then planes 1 and 0.
/// Ordered as its big-endian bytes are (the order of ply files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PackedKey(pub [u64; 3]);

impl PackedKey {
    /// The key's bytes, each word big-endian: their lexicographic order is the key's.
    pub fn to_bytes(self) -> [u8; KEY_BYTES] {
        let mut bytes = [0; KEY_BYTES];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        bytes
    }

    pub fn from_bytes(bytes: &[u8; KEY_BYTES]) -> PackedKey {
        let mut words = [0; 3];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *word = u64::from_be_bytes(chunk.try_into().expect("8 bytes"));
        }
        PackedKey(words)
    }
}

/// Packs and unpacks keys; the tables are built once per process.
#[derive(Clone, Copy)]
pub struct KeyCodec {
    /// `extract[mask << 8 | value]`: the bits of `value` under `mask`, packed low.
    extract: &'static [u8],
    /// `deposit[mask << 8 | bits]`: the low bits of `bits` spread over `mask`.
    deposit: &'static [u8],
}

impl KeyCodec {
    pub fn get() -> KeyCodec {
        static TABLES: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
        let (extract, deposit) = TABLES.get_or_init(|| {
            let mut extract = vec![0u8; 1 << 16];
            let mut deposit = vec![0u8; 1 << 16];
            for mask in 0..256usize {
                for value in 0..256usize {
                    let (mut packed, mut spread, mut out_bit) = (0u8, 0u8, 0);
                    for bit in (0..8).filter(|b| mask >> b & 1 == 1) {
                        packed |= ((value >> bit & 1) as u8) << out_bit;
                        spread |= ((value >> out_bit & 1) as u8) << bit;
                        out_bit += 1;
                    }
                    extract[mask << 8 | value] = packed;
                    deposit[mask << 8 | value] = spread;
                }
            }
            (extract, deposit)
        });
        KeyCodec { extract, deposit }
    }

    /// The packed key of `board`, which has at most 32 pieces (16 a side, as every valid
    /// position): each packed plane fits 32 bits.
    #[inline(always)]
    pub fn pack(self, board: &NybbleBoard) -> PackedKey {
        let [p0, p1, p2, p3] = board.planes;
        let occupied = p0 | p1 | p2 | p3;
        let mut packed = [0u64; 4];
        let mut shift = 0;
        for rank in 0..8 {
            let at = rank * 8;
            let mask = (occupied >> at & 0xff) as usize;
            if mask == 0 {
                continue;
            }
            for (out, plane) in packed.iter_mut().zip([p0, p1, p2, p3]) {
                let bits = self.extract[mask << 8 | (plane >> at & 0xff) as usize];
                *out |= u64::from(bits) << shift;
            }
            shift += mask.count_ones();
        }
        PackedKey([
            occupied,
            packed[3] << 32 | packed[2],
            packed[1] << 32 | packed[0],
        ])
    }

    /// The NybbleBoard `key` was packed from.
    #[inline(always)]
    pub fn unpack(self, key: &PackedKey) -> NybbleBoard {
        let [occupied, high, low] = key.0;
        let mut packed = [low & 0xffff_ffff, low >> 32, high & 0xffff_ffff, high >> 32];
        let mut planes = [0u64; 4];
        for rank in 0..8 {
            let at = rank * 8;
            let mask = (occupied >> at & 0xff) as usize;
            if mask == 0 {
                continue;
            }
            let count = mask.count_ones();
            for (plane, bits) in planes.iter_mut().zip(packed.iter_mut()) {
                let low_bits = (*bits & ((1 << count) - 1)) as usize;
                *plane |= u64::from(self.deposit[mask << 8 | low_bits]) << at;
                *bits >>= count;
            }
        }
        NybbleBoard { planes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::chess::rng::SplitMix64;
    use crate::chess::Position;

    /// Keys round-trip, are equal iff the NybbleBoards are, and order as their bytes do.
    #[test]
    fn keys_round_trip_and_order_as_their_bytes() {
        let codec = KeyCodec::get();
        let mut rng = SplitMix64::new(5);
        let mut seen = Vec::new();
        for fen in [
            crate::chess::fen::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 1",
        ] {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..150 {
                let board = NybbleBoard::from_position(&pos);
                let key = codec.pack(&board);
                assert_eq!(codec.unpack(&key), board, "{}", pos.to_fen());
                assert_eq!(PackedKey::from_bytes(&key.to_bytes()), key);
                seen.push((board.planes, key));
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            }
        }
        for (a, ka) in &seen {
            for (b, kb) in &seen {
                assert_eq!(a == b, ka == kb);
                assert_eq!(ka.cmp(kb), ka.to_bytes().cmp(&kb.to_bytes()));
            }
        }
    }
}
