//! The children of positions given by their NybbleBoard keys, as keys: what the unique-position
//! expansion needs for every position of a ply. Keys are decoded straight into the generator's
//! board (no validation: they come from the generator itself), each legal move is made on a
//! copy, and the child's key is built from its piece sets, with the en passant square kept only
//! where the capture is legal. A batch of parents runs in one function compiled for the slider
//! lookup of this CPU ([`Sliders::out_of_line`]).

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, PROMOTIONS, QUEEN, ROOK};
use super::flags::{Black, Flag, No, Side, White, Yes};
use super::lookup::{OutOfLine, Sliders};
use super::node::{generate, origin, Visitor};
use super::slider_lookup::SliderLookup;
use super::sliders;
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::nybble::NybbleBoard;
use crate::chess::square::Square;
use crate::chess::types::Color;
use std::marker::PhantomData;

/// Calls `visit(index, child)` for every legal move of every position of `parents`, `index`
/// being the parent's place in `parents`.
pub fn for_each_child(parents: &[NybbleBoard], visit: impl FnMut(usize, &NybbleBoard)) {
    let mut work = Batch {
        sliders: sliders::Magic::new(),
        parents,
        visit,
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

struct Batch<'a, L, F> {
    sliders: L,
    parents: &'a [NybbleBoard],
    visit: F,
}

impl<'a, L: Sliders, F: FnMut(usize, &NybbleBoard)> Batch<'a, L, F> {
    fn with_sliders<M: Sliders>(self, sliders: M) -> Batch<'a, M, F> {
        Batch {
            sliders,
            parents: self.parents,
            visit: self.visit,
        }
    }
}

impl<L: Sliders, F: FnMut(usize, &NybbleBoard)> OutOfLine for Batch<'_, L, F> {
    #[inline(always)]
    fn run(&mut self) {
        for (index, key) in self.parents.iter().enumerate() {
            let (board, turn) = decode(key);
            let visit = |child: &NybbleBoard| (self.visit)(index, child);
            let ep = board.ep_square != Square::A1;
            let castling = board.castling_rooks.any();
            match turn {
                Color::White => children::<L, White, _>(self.sliders, &board, ep, castling, visit),
                Color::Black => children::<L, Black, _>(self.sliders, &board, ep, castling, visit),
            }
        }
    }
}

#[inline(always)]
fn children<L: Sliders, S: Side, V: FnMut(&NybbleBoard)>(
    sliders: L,
    board: &Board,
    ep: bool,
    castling: bool,
    visit: V,
) {
    match (ep, castling) {
        (false, false) => make::<L, S, No, No, V>(sliders, board, visit),
        (false, true) => make::<L, S, No, Yes, V>(sliders, board, visit),
        (true, false) => make::<L, S, Yes, No, V>(sliders, board, visit),
        (true, true) => make::<L, S, Yes, Yes, V>(sliders, board, visit),
    }
}

#[inline(always)]
fn make<L: Sliders, S: Side, E: Flag, C: Flag, V: FnMut(&NybbleBoard)>(
    sliders: L,
    board: &Board,
    visit: V,
) {
    let mut keys = Keys::<L, S, C, V> {
        sliders,
        board,
        visit,
        side: PhantomData,
    };
    generate::<L, S, E, C, _>(sliders, board, &mut keys);
}

/// The board a key describes, and the side to move. The board's en passant square is
/// `Square::A1` when the key has none (a1 is never one).
pub(super) fn decode(key: &NybbleBoard) -> (Board, Color) {
    let [p0, p1, p2, p3] = key.planes;
    let low_seven = p0 & p1 & p2;
    let king_to_move = low_seven & p3;
    let castling = low_seven & !p3;
    let ep_pawn = !p0 & !p1 & !p2 & p3;
    let other_king = !p0 & p1 & p2;
    let turn = if other_king & p3 != 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut black = (p3 & !ep_pawn & !king_to_move)
        | (castling & Bitboard::RANK_8.0)
        | (ep_pawn & Bitboard::RANK_5.0);
    if turn == Color::Black {
        black |= king_to_move;
    }
    let occupied = p0 | p1 | p2 | p3;
    let ep_square = match (ep_pawn != 0, turn) {
        (false, _) => Square::A1,
        (true, Color::White) => Square::new(ep_pawn.trailing_zeros() as u8 + 8),
        (true, Color::Black) => Square::new(ep_pawn.trailing_zeros() as u8 - 8),
    };
    let board = Board {
        roles: [
            (p0 & !p1 & !p2) | ep_pawn,
            !p0 & p1 & !p2,
            p0 & p1 & !p2,
            (!p0 & !p1 & p2) | castling,
            p0 & !p1 & p2,
            other_king | king_to_move,
        ]
        .map(Bitboard),
        colors: [Bitboard(occupied & !black), Bitboard(black)],
        castling_rooks: Bitboard(castling),
        ep_square,
    };
    (board, turn)
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

/// Makes each move and hands the child's key on.
struct Keys<'a, L, S, C, V> {
    sliders: L,
    board: &'a Board,
    visit: V,
    side: PhantomData<(S, C)>,
}

impl<L: Sliders, S: Side, C: Flag, V: FnMut(&NybbleBoard)> Keys<'_, L, S, C, V> {
    #[inline(always)]
    fn child(&mut self, child: &Board) {
        (self.visit)(&key_of::<S::Other>(child, Bitboard::EMPTY));
    }
}

impl<L: Sliders, S: Side, C: Flag, V: FnMut(&NybbleBoard)> Visitor for Keys<'_, L, S, C, V> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            let child = self.board.moved::<S, C, ROLE>(from, to);
            self.child(&child);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let child = self.board.moved::<S, C, PAWN>(origin(to, offset), to);
            self.child(&child);
        }
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            let (child, capturable) = self.board.double_pushed::<S>(origin(to, offset), to);
            let legal = capturable && ep_capture_exists::<L, S::Other, C>(self.sliders, &child);
            let ep_pawn = if legal {
                Bitboard::from_square(to)
            } else {
                Bitboard::EMPTY
            };
            (self.visit)(&key_of::<S::Other>(&child, ep_pawn));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        for to in targets {
            for role in PROMOTIONS {
                let child = self.board.promoted::<S, C>(origin(to, offset), to, role);
                self.child(&child);
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        let child = self.board.en_passant::<S>(from);
        self.child(&child);
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        let child = self.board.castled::<S>(squares);
        self.child(&child);
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

    /// Decoding a key gives the board the generator makes from the position itself.
    #[test]
    fn keys_decode_to_the_generators_board() {
        let mut rng = SplitMix64::new(3);
        for fen in ROOTS {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..200 {
                let (board, turn) = decode(&NybbleBoard::from_position(&pos));
                let expected = (Board::from_position(&pos), pos.turn());
                assert_eq!((board, turn), expected, "{}", pos.to_fen());
                let moves = legal_moves(&pos);
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
