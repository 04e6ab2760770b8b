//! The generator's board and side to move from a NybbleBoard key, decoded straight from the
//! key's planes with no validation (the keys come from the generator itself): what the
//! unique-position expansion starts every parent from.

use super::board::Board;
use crate::chess::bitboard::Bitboard;
use crate::chess::nybble::NybbleBoard;
use crate::chess::square::Square;
use crate::chess::types::Color;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::chess::rng::SplitMix64;
    use crate::chess::Position;

    /// Decoding a key gives the board the generator makes from the position itself.
    const ROOTS: [&str; 4] = [
        crate::chess::fen::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        // Chess960, castling with rooks on b and g.
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    ];

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
}
