//! Proptest strategies for chess values: unvalidated setups and the legal positions among them.

use proptest::prelude::*;
use proptest::sample::Index;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{Bitboard, CastlingSquares, Color, Piece, Position, Role, Setup, Square};

/// A move counter: mostly small, sometimes the largest a FEN holds.
fn counter(min: u32) -> impl Strategy<Value = u32> {
    prop_oneof![
        8 => min..200,
        1 => Just(u32::MAX),
        1 => min..=u32::MAX,
    ]
}

/// Setups whose FEN parses: two kings, up to 30 other pieces (pawns kept off the back ranks),
/// half of them with kings and rooks first put on their home squares, castling rights among those
/// that the pieces allow, and a third of them with a pawn that has just double-pushed beside a
/// pawn that may take it en passant. Many are still illegal (the side not to move in check, more
/// pieces than promotions give).
pub fn setups() -> impl Strategy<Value = Setup> {
    (
        (any::<bool>(), 0u8..64, 1u8..64),
        prop::collection::vec((0u8..64, any::<Index>(), any::<bool>()), 0..30),
        any::<bool>(),
        0u8..16,
        prop::option::weighted(0.33, (0u8..8, any::<bool>())),
        (counter(0), counter(1)),
    )
        .prop_map(
            |((home, king, other_king_offset), pieces, black_to_move, castling, ep, counters)| {
                let mut setup = Setup::empty();
                if home {
                    for (sq, color) in [
                        (Square::A1, Color::White),
                        (Square::H1, Color::White),
                        (Square::A8, Color::Black),
                        (Square::H8, Color::Black),
                    ] {
                        setup.board[sq.index()] = Some(Piece::new(color, Role::Rook));
                    }
                }
                for (sq, role, black) in pieces {
                    let sq = Square::new(sq);
                    // Pawn to queen: the kings come next, one each.
                    let role = *role.get(&Role::ALL[..5]);
                    if role != Role::Pawn || !matches!(sq.rank(), 0 | 7) {
                        let color = if black { Color::Black } else { Color::White };
                        setup.board[sq.index()] = Some(Piece::new(color, role));
                    }
                }
                let (white_king, black_king) = if home {
                    (Square::E1, Square::E8)
                } else {
                    (
                        Square::new(king),
                        Square::new((king + other_king_offset) % 64),
                    )
                };
                setup.board[white_king.index()] = Some(Piece::new(Color::White, Role::King));
                setup.board[black_king.index()] = Some(Piece::new(Color::Black, Role::King));
                setup.turn = if black_to_move {
                    Color::Black
                } else {
                    Color::White
                };
                setup.castling_rooks = available_castling(&setup, castling);
                if let Some((file, capturer_on_left)) = ep {
                    setup.ep_square = double_push(&mut setup, file, capturer_on_left);
                }
                (setup.halfmove_clock, setup.fullmove_number) = counters;
                setup
            },
        )
}

/// The legal positions among [`setups`].
pub fn positions() -> impl Strategy<Value = Position> {
    setups().prop_filter_map("illegal position", |setup| {
        Position::from_setup(&setup).ok()
    })
}

/// The legal positions among [`setups`] that have a legal move.
pub fn positions_with_moves() -> impl Strategy<Value = Position> {
    positions().prop_filter("no legal move", |pos| !legal_moves(pos).is_empty())
}

/// The rooks of the standard rights among `wanted` (bits: white king side, white queen side,
/// black king side, black queen side) whose king and rook stand on their home squares.
fn available_castling(setup: &Setup, wanted: u8) -> Bitboard {
    let mut rooks = Bitboard::EMPTY;
    for (bit, (color, king_side)) in [
        (Color::White, true),
        (Color::White, false),
        (Color::Black, true),
        (Color::Black, false),
    ]
    .into_iter()
    .enumerate()
    {
        let squares = CastlingSquares::standard(color, king_side);
        if wanted >> bit & 1 != 0
            && setup.board[squares.king_from.index()] == Some(Piece::new(color, Role::King))
            && setup.board[squares.rook_from.index()] == Some(Piece::new(color, Role::Rook))
        {
            rooks = rooks.with(squares.rook_from);
        }
    }
    rooks
}

/// Makes the side not to move have just double-pushed a pawn on `file`, with a pawn of the side
/// to move beside it when there is room (left or right of it as asked), and returns the en
/// passant square; `None` when one of the squares this needs holds a king.
fn double_push(setup: &mut Setup, file: u8, capturer_on_left: bool) -> Option<Square> {
    let us = setup.turn;
    let (pawn_rank, ep_rank, origin_rank) = match us {
        Color::White => (4, 5, 6),
        Color::Black => (3, 2, 1),
    };
    let pawn = Square::from_coords(file, pawn_rank);
    let ep = Square::from_coords(file, ep_rank);
    let origin = Square::from_coords(file, origin_rank);
    let capturer_file = if capturer_on_left {
        file.checked_sub(1)
    } else {
        Some(file + 1).filter(|&f| f < 8)
    };
    let capturer = capturer_file.map(|f| Square::from_coords(f, pawn_rank));
    let is_king = |sq: Square| setup.board[sq.index()].is_some_and(|p| p.role == Role::King);
    if [pawn, ep, origin].into_iter().chain(capturer).any(is_king) {
        return None;
    }
    setup.board[pawn.index()] = Some(Piece::new(!us, Role::Pawn));
    setup.board[ep.index()] = None;
    setup.board[origin.index()] = None;
    if let Some(sq) = capturer {
        setup.board[sq.index()] = Some(Piece::new(us, Role::Pawn));
    }
    Some(ep)
}
