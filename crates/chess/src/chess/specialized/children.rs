//! The children of positions given by their NybbleBoard keys, as keys: what the unique-position
//! expansion needs for every position of a ply. Keys are decoded straight into the generator's
//! board (no validation: they come from the generator itself). Each legal move's child gets its
//! [placement hash](super::placement_hash) from the parent's first; only a child that the
//! caller wants then is made on a copy, and its key built from its piece sets, with the en
//! passant square kept only where the capture is legal. A batch of parents runs in one function
//! compiled for the slider lookup of this CPU ([`Sliders::out_of_line`]).

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, PROMOTIONS, QUEEN, ROOK};
use super::flags::{Black, Flag, No, Side, White, Yes};
use super::key_board::decode;
use super::lookup::{OutOfLine, Sliders};
use super::node::{generate, origin, Visitor};
use super::placement_hash::{board_keys, finish, piece_key};
use super::slider_lookup::SliderLookup;
use super::sliders;
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::nybble::NybbleBoard;
use crate::chess::square::Square;
use crate::chess::types::Color;
use std::marker::PhantomData;

/// What receives the children of a batch of parents.
pub trait ChildSink {
    /// Whether the child of parent `index` (its place in the batch) with placement hash `hash`
    /// is wanted: asked for every legal move.
    fn wants(&mut self, index: usize, hash: u64) -> bool;
    /// A wanted child.
    fn child(&mut self, index: usize, hash: u64, child: &NybbleBoard);
}

/// Hands every child of every position of `parents` to `sink`: its hash to
/// [`ChildSink::wants`], and the child itself to [`ChildSink::child`] where wanted.
pub fn for_each_child_in(parents: &[NybbleBoard], sink: &mut impl ChildSink) {
    let mut work = Batch {
        sliders: sliders::Magic::new(),
        parents,
        sink,
    };
    #[cfg(target_arch = "x86_64")]
    match SliderLookup::detect() {
        SliderLookup::Pext => {
            if let Some(pext) = sliders::Pext::on_this_cpu() {
                return pext.out_of_line(&mut work.with_sliders(pext));
            }
        }
        SliderLookup::Magic => {
            if let Some(magic) = sliders::MagicBmi2::on_this_cpu() {
                return magic.out_of_line(&mut work.with_sliders(magic));
            }
        }
        SliderLookup::PortableMagic => {}
    }
    work.run();
}

/// Calls `visit(index, child)` for every legal move of every position of `parents`, `index`
/// being the parent's place in `parents`.
pub fn for_each_child(parents: &[NybbleBoard], visit: impl FnMut(usize, &NybbleBoard)) {
    struct Every<F>(F);
    impl<F: FnMut(usize, &NybbleBoard)> ChildSink for Every<F> {
        fn wants(&mut self, _index: usize, _hash: u64) -> bool {
            true
        }
        fn child(&mut self, index: usize, _hash: u64, child: &NybbleBoard) {
            (self.0)(index, child)
        }
    }
    for_each_child_in(parents, &mut Every(visit));
}

struct Batch<'a, L, K> {
    sliders: L,
    parents: &'a [NybbleBoard],
    sink: &'a mut K,
}

impl<'a, L: Sliders, K: ChildSink> Batch<'a, L, K> {
    fn with_sliders<M: Sliders>(self, sliders: M) -> Batch<'a, M, K> {
        Batch {
            sliders,
            parents: self.parents,
            sink: self.sink,
        }
    }
}

impl<L: Sliders, K: ChildSink> OutOfLine for Batch<'_, L, K> {
    #[inline(always)]
    fn run(&mut self) {
        for (index, key) in self.parents.iter().enumerate() {
            let (board, turn) = decode(key);
            let parent = Parent {
                index,
                keys: board_keys(&board),
            };
            let sink = &mut *self.sink;
            let ep = board.ep_square != Square::A1;
            let castling = board.castling_rooks.any();
            match turn {
                Color::White => {
                    children::<L, White, _>(self.sliders, &board, parent, ep, castling, sink)
                }
                Color::Black => {
                    children::<L, Black, _>(self.sliders, &board, parent, ep, castling, sink)
                }
            }
        }
    }
}

/// A parent's place in its batch and the XOR of its pieces' keys.
#[derive(Clone, Copy)]
struct Parent {
    index: usize,
    keys: u64,
}

#[inline(always)]
fn children<L: Sliders, S: Side, K: ChildSink>(
    sliders: L,
    board: &Board,
    parent: Parent,
    ep: bool,
    castling: bool,
    sink: &mut K,
) {
    match (ep, castling) {
        (false, false) => make::<L, S, No, No, K>(sliders, board, parent, sink),
        (false, true) => make::<L, S, No, Yes, K>(sliders, board, parent, sink),
        (true, false) => make::<L, S, Yes, No, K>(sliders, board, parent, sink),
        (true, true) => make::<L, S, Yes, Yes, K>(sliders, board, parent, sink),
    }
}

#[inline(always)]
fn make<L: Sliders, S: Side, E: Flag, C: Flag, K: ChildSink>(
    sliders: L,
    board: &Board,
    parent: Parent,
    sink: &mut K,
) {
    let mut keys = Keys::<L, S, C, K> {
        sliders,
        board,
        parent,
        sink,
        side: PhantomData,
    };
    generate::<L, S, E, C, _>(sliders, board, &mut keys);
}

/// The key of `board` with `S` to move; `ep_pawn` is the pawn that may be taken en passant,
/// if the capture is legal.
#[inline(always)]
fn key_of<S: Side>(board: &Board, ep_pawn: Bitboard) -> NybbleBoard {
    let [pawns, knights, bishops, rooks, queens, kings] = board.roles.map(|set| set.0);
    let castling = board.castling_rooks.0;
    let to_move = kings & board.colors[S::COLOR.index()].0;
    let ep = ep_pawn.0;
    NybbleBoard {
        planes: [
            ((pawns | bishops | queens | castling) & !ep) | to_move,
            ((knights | bishops | kings | castling) & !ep) | to_move,
            ((rooks | queens | kings | castling) & !ep) | to_move,
            ((board.colors[1].0 & !castling) | ep) | to_move,
        ],
    }
}

/// Hashes each move's child, and makes it and hands its key on where the sink wants it.
struct Keys<'a, L, S, C, K> {
    sliders: L,
    board: &'a Board,
    parent: Parent,
    sink: &'a mut K,
    side: PhantomData<(S, C)>,
}

impl<L: Sliders, S: Side, C: Flag, K: ChildSink> Keys<'_, L, S, C, K> {
    /// The key of our piece of `role` on `square`.
    #[inline(always)]
    fn ours(role: usize, square: Square) -> u64 {
        piece_key(S::COLOR.index(), role, square)
    }

    /// The key of the enemy piece on `square`, 0 where there is none (never their king).
    #[inline(always)]
    fn taken(&self, square: Square) -> u64 {
        let at = Bitboard::from_square(square);
        if (self.board.theirs::<S>() & at).is_empty() {
            return 0;
        }
        let role = (PAWN..KING)
            .find(|&role| (self.board.roles[role] & at).any())
            .unwrap_or(PAWN);
        piece_key(S::Other::COLOR.index(), role, square)
    }

    /// The child's hash from the keys the move changes, and whether the sink wants it.
    #[inline(always)]
    fn wants(&mut self, changed: u64) -> Option<u64> {
        let hash = finish(self.parent.keys ^ changed);
        self.sink.wants(self.parent.index, hash).then_some(hash)
    }

    #[inline(always)]
    fn child(&mut self, hash: u64, child: &Board) {
        self.sink.child(
            self.parent.index,
            hash,
            &key_of::<S::Other>(child, Bitboard::EMPTY),
        );
    }
}

impl<L: Sliders, S: Side, C: Flag, K: ChildSink> Visitor for Keys<'_, L, S, C, K> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        let lifted = Self::ours(ROLE, from);
        for to in targets {
            let changed = lifted ^ Self::ours(ROLE, to) ^ self.taken(to);
            if let Some(hash) = self.wants(changed) {
                let child = self.board.moved::<S, C, ROLE>(from, to);
                self.child(hash, &child);
            }
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let from = origin(to, offset);
            let changed = Self::ours(PAWN, from) ^ Self::ours(PAWN, to) ^ self.taken(to);
            if let Some(hash) = self.wants(changed) {
                let child = self.board.moved::<S, C, PAWN>(from, to);
                self.child(hash, &child);
            }
        }
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let from = origin(to, offset);
            let Some(hash) = self.wants(Self::ours(PAWN, from) ^ Self::ours(PAWN, to)) else {
                continue;
            };
            let (child, capturable) = self.board.double_pushed::<S>(from, to);
            let legal = capturable && ep_capture_exists::<L, S::Other, C>(self.sliders, &child);
            let ep_pawn = if legal {
                Bitboard::from_square(to)
            } else {
                Bitboard::EMPTY
            };
            self.sink.child(
                self.parent.index,
                hash,
                &key_of::<S::Other>(&child, ep_pawn),
            );
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let from = origin(to, offset);
            let moved = Self::ours(PAWN, from) ^ self.taken(to);
            for role in PROMOTIONS {
                if let Some(hash) = self.wants(moved ^ Self::ours(role, to)) {
                    let child = self.board.promoted::<S, C>(from, to, role);
                    self.child(hash, &child);
                }
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        let to = self.board.ep_square;
        let taken = Square::new((to.to_u8() as i8 - S::PUSH) as u8);
        let changed = Self::ours(PAWN, from)
            ^ Self::ours(PAWN, to)
            ^ piece_key(S::Other::COLOR.index(), PAWN, taken);
        if let Some(hash) = self.wants(changed) {
            let child = self.board.en_passant::<S>(from);
            self.child(hash, &child);
        }
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        // Keys XOR: lifting and putting down cancel where a piece lands where one stood.
        let changed = Self::ours(KING, squares.king_from)
            ^ Self::ours(KING, squares.king_to)
            ^ Self::ours(ROOK, squares.rook_from)
            ^ Self::ours(ROOK, squares.rook_to);
        if let Some(hash) = self.wants(changed) {
            let child = self.board.castled::<S>(squares);
            self.child(hash, &child);
        }
    }
}

/// Whether `S`, to move on `board` right after the opponent's double push, has a legal en
/// passant capture: rare (an enemy pawn beside the pushed one), so the whole generation runs.
#[inline(never)]
fn ep_capture_exists<L: Sliders, S: Side, C: Flag>(sliders: L, board: &Board) -> bool {
    let mut seen = EnPassantSeen(false);
    if board.castling_rooks.any() {
        generate::<L, S, Yes, C, _>(sliders, board, &mut seen);
    } else {
        generate::<L, S, Yes, No, _>(sliders, board, &mut seen);
    }
    seen.0
}

struct EnPassantSeen(bool);

impl Visitor for EnPassantSeen {
    fn piece<const ROLE: usize>(&mut self, _from: Square, _targets: Bitboard) {}
    fn pawn_moves(&mut self, _targets: Bitboard, _offset: i8) {}
    fn double_pushes(&mut self, _targets: Bitboard, _offset: i8) {}
    fn promotions(&mut self, _targets: Bitboard, _offset: i8) {}
    fn en_passant(&mut self, _from: Square) {
        self.0 = true;
    }
    fn castle(&mut self, _squares: CastlingSquares) {}
}

// The role indexes the decoder writes, in the board's order.
const _: () = assert!(PAWN == 0 && KNIGHT == 1 && BISHOP == 2);
const _: () = assert!(ROOK == 3 && QUEEN == 4 && KING == 5);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::chess::rng::SplitMix64;
    use crate::chess::Position;

    const ROOTS: [&str; 6] = [
        crate::chess::fen::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        // Chess960, castling with rooks on b and g.
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    ];

    /// Each child's hash, made from its parent's and the move, is the hash of the child itself;
    /// and a child the sink does not want is not made.
    #[test]
    fn childrens_hashes_from_their_parents_equal_their_own() {
        use super::super::placement_hash::placement_hash;
        // Three quarters of the hash space, as a partition's range.
        fn wanted(hash: u64) -> bool {
            hash >> 62 != 0
        }
        struct Check {
            asked: usize,
            made: usize,
        }
        impl ChildSink for Check {
            fn wants(&mut self, _index: usize, hash: u64) -> bool {
                self.asked += 1;
                wanted(hash)
            }
            fn child(&mut self, _index: usize, hash: u64, child: &NybbleBoard) {
                self.made += 1;
                assert_eq!(hash, placement_hash(child));
                assert!(wanted(hash));
            }
        }
        let mut rng = SplitMix64::new(17);
        for fen in ROOTS {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..300 {
                let moves = legal_moves(&pos);
                let mut check = Check { asked: 0, made: 0 };
                for_each_child_in(&[NybbleBoard::from_position(&pos)], &mut check);
                assert_eq!(check.asked, moves.len(), "{}", pos.to_fen());
                let wanted = moves
                    .iter()
                    .filter(|&&m| wanted(placement_hash(&NybbleBoard::from_position(&pos.play(m)))))
                    .count();
                assert_eq!(check.made, wanted, "{}", pos.to_fen());
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            }
        }
    }

    /// The children's keys are those of the reference generator's moves, on random walks from
    /// positions with castling, en passant, promotions and pins, Chess960 among them.
    #[test]
    fn children_equal_the_reference_generators() {
        let mut rng = SplitMix64::new(11);
        for fen in ROOTS {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..300 {
                let moves = legal_moves(&pos);
                let mut expected: Vec<[u64; 4]> = moves
                    .iter()
                    .map(|&m| NybbleBoard::from_position(&pos.play(m)).planes)
                    .collect();
                let mut got = Vec::new();
                for_each_child(&[NybbleBoard::from_position(&pos)], |index, child| {
                    assert_eq!(index, 0);
                    got.push(child.planes);
                });
                expected.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expected, "{}", pos.to_fen());
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            }
        }
    }
}
