//! 128-bit Zobrist keys from a seeded generator, updated incrementally per move.
//!
//! Two independent seeds give two independent hash functions: `--cross-check` repeats a run
//! with another seed. The key covers placement, side to move, castling rights and the
//! canonical ep file. A castling right is keyed by its rook's square (16 keys: white's back rank,
//! then black's), so that two Chess960 positions that differ only in which rook may castle
//! differ in their keys. Remaining depth enters TT keys by XOR of [`Zobrist::depth_key`].

use super::bitboard::Bitboard;
use super::castling::CastlingSquares;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::rng::SplitMix64;
use super::square::Square;
use super::types::{Color, Piece, Role};
use std::ops::{BitXor, BitXorAssign};

pub const DEFAULT_SEED: u64 = 0x0076_6b70_6572_6674;

/// Depths that get their own key; perft deeper than this is not supported anyway.
pub const MAX_DEPTH_KEYS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hash128 {
    pub hi: u64,
    pub lo: u64,
}

impl BitXor for Hash128 {
    type Output = Hash128;
    #[inline]
    fn bitxor(self, rhs: Hash128) -> Hash128 {
        Hash128 {
            hi: self.hi ^ rhs.hi,
            lo: self.lo ^ rhs.lo,
        }
    }
}

impl BitXorAssign for Hash128 {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Hash128) {
        *self = *self ^ rhs;
    }
}

#[derive(Clone, Debug)]
pub struct Zobrist {
    seed: u64,
    pieces: [[Hash128; 64]; 12],
    black_to_move: Hash128,
    /// By castling rook: a1..h1, then a8..h8.
    castling: [Hash128; 16],
    ep_file: [Hash128; 8],
    depth: [Hash128; MAX_DEPTH_KEYS],
}

impl Zobrist {
    pub fn new(seed: u64) -> Zobrist {
        let mut rng = SplitMix64::new(seed);
        let mut next = || Hash128 {
            hi: rng.next_u64(),
            lo: rng.next_u64(),
        };
        let mut pieces = [[Hash128::default(); 64]; 12];
        for piece in pieces.iter_mut() {
            for key in piece.iter_mut() {
                *key = next();
            }
        }
        let black_to_move = next();
        let mut castling = [Hash128::default(); 16];
        for key in castling.iter_mut() {
            *key = next();
        }
        let mut ep_file = [Hash128::default(); 8];
        for key in ep_file.iter_mut() {
            *key = next();
        }
        let mut depth = [Hash128::default(); MAX_DEPTH_KEYS];
        for key in depth.iter_mut() {
            *key = next();
        }
        Zobrist {
            seed,
            pieces,
            black_to_move,
            castling,
            ep_file,
            depth,
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every key in one list, for the GPU: the 12 x 64 piece keys (white pawn..king, then
    /// black, each by square), black to move, the 16 castling-rook keys, the 8 ep-file keys
    /// and the per-depth keys.
    pub fn key_table(&self) -> Vec<Hash128> {
        let mut keys: Vec<Hash128> = self.pieces.iter().flatten().copied().collect();
        keys.push(self.black_to_move);
        keys.extend_from_slice(&self.castling);
        keys.extend_from_slice(&self.ep_file);
        keys.extend_from_slice(&self.depth);
        keys
    }

    #[inline]
    fn piece(&self, color: Color, role: Role, sq: Square) -> Hash128 {
        self.pieces[Piece::new(color, role).index()][sq.index()]
    }

    /// The keys of the castling rooks on `rooks` (back-rank squares only).
    #[inline]
    fn castling(&self, rooks: Bitboard) -> Hash128 {
        let mut h = Hash128::default();
        for rook in rooks {
            h ^= self.castling[usize::from(rook.rank() / 7) * 8 + usize::from(rook.file())];
        }
        h
    }

    /// The key XORed into a position's hash to make the TT key for `depth` plies remaining.
    #[inline]
    pub fn depth_key(&self, depth: u32) -> Hash128 {
        self.depth[depth as usize % MAX_DEPTH_KEYS]
    }

    /// The full hash, computed from scratch.
    pub fn hash(&self, pos: &Position) -> Hash128 {
        let mut h = Hash128::default();
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    h ^= self.piece(color, role, sq);
                }
            }
        }
        if pos.turn() == Color::Black {
            h ^= self.black_to_move;
        }
        h ^= self.castling(pos.castling_rooks());
        if let Some(ep) = pos.ep_square() {
            h ^= self.ep_file[ep.file() as usize];
        }
        h
    }

    /// What `m` XORs into the hash of `parent` to give the hash of `child = parent.play(m)`.
    /// XOR is its own inverse, so the same delta also undoes the move.
    pub fn move_delta(&self, parent: &Position, m: Move, child: &Position) -> Hash128 {
        self.delta(parent, m, child.castling_rooks(), child.ep_square())
    }

    /// [`Self::move_delta`] without the child, for every move but a double push (`None`):
    /// only a double push can leave an en passant square, and whether it does depends on the
    /// legality of the capture in the child. A table probe that hits needs no child at all.
    #[inline]
    pub fn move_delta_before_play(&self, parent: &Position, m: Move) -> Option<Hash128> {
        if m.kind() == MoveKind::DoublePush {
            return None;
        }
        let us = parent.by_color(parent.turn());
        // As `Position::play`: a right is lost when its rook moves or is taken, and all of
        // ours when the king moves (a castle is a king move).
        let from_to = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        let mut castling_rooks = parent.castling_rooks() & !from_to;
        if m.kind() == MoveKind::Castle || parent.role_at(m.from()) == Some(Role::King) {
            castling_rooks &= !us;
        }
        Some(self.delta(parent, m, castling_rooks, None))
    }

    #[inline]
    fn delta(
        &self,
        parent: &Position,
        m: Move,
        child_castling_rooks: Bitboard,
        child_ep: Option<Square>,
    ) -> Hash128 {
        let us = parent.turn();
        let them = !us;
        let (from, to) = (m.from(), m.to());
        // Keys of rooks that keep their right cancel out: only the rights the move lost count.
        let mut d =
            self.black_to_move ^ self.castling(parent.castling_rooks() ^ child_castling_rooks);
        if let Some(ep) = parent.ep_square() {
            d ^= self.ep_file[ep.file() as usize];
        }
        if m.kind() == MoveKind::Castle {
            let squares = CastlingSquares::new(from, to);
            return d
                ^ self.piece(us, Role::King, squares.king_from)
                ^ self.piece(us, Role::King, squares.king_to)
                ^ self.piece(us, Role::Rook, squares.rook_from)
                ^ self.piece(us, Role::Rook, squares.rook_to);
        }
        let role = parent.role_at(from).unwrap_or(Role::Pawn);
        d ^= self.piece(us, role, from);
        d ^= match m.kind().promotion() {
            Some(promoted) => self.piece(us, promoted, to),
            None => self.piece(us, role, to),
        };
        if let Some(captured) = parent.role_at(to) {
            d ^= self.piece(them, captured, to);
        }
        if m.kind() == MoveKind::EnPassant {
            let captured = Square::from_coords(to.file(), from.rank());
            d ^= self.piece(them, Role::Pawn, captured);
        }
        if let Some(ep) = child_ep {
            d ^= self.ep_file[ep.file() as usize];
        }
        d
    }
}

impl Default for Zobrist {
    fn default() -> Self {
        Zobrist::new(DEFAULT_SEED)
    }
}
