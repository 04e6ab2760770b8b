//! Castling in standard chess and Chess960: where the king and rook of a castle stand and land,
//! and how castling is written.
//!
//! A castling right belongs to a rook: a position keeps the set of rooks that may still castle
//! (`Position::castling_rooks`). Standard chess is the Chess960 rule with the king on the
//! e-file and the rooks in the corners: the king lands on the g- or c-file, the rook beside it
//! on the f- or d-file, every square between either piece and its target must be empty but for
//! the two, and the king may not be in check, pass an attacked square or land on one.

use super::bitboard::Bitboard;
use super::castling_files::landing_files;
use super::square::Square;
use super::types::Color;

/// King and rook squares of one castle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingSquares {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
}

impl CastlingSquares {
    /// The castle of the king on `king_from` with the rook on `rook_from`, on the same rank:
    /// on the king side when the rook is on a higher file.
    pub const fn new(king_from: Square, rook_from: Square) -> CastlingSquares {
        let rank = king_from.rank();
        let (king_file, rook_file) = landing_files(rook_from.file() > king_from.file());
        CastlingSquares {
            king_from,
            king_to: Square::from_coords(king_file, rank),
            rook_from,
            rook_to: Square::from_coords(rook_file, rank),
        }
    }

    /// The castle of standard chess: king on the e-file, rook in the corner.
    pub const fn standard(color: Color, king_side: bool) -> CastlingSquares {
        let rank = color.back_rank();
        let rook_file = if king_side { 7 } else { 0 };
        CastlingSquares::new(
            Square::from_coords(4, rank),
            Square::from_coords(rook_file, rank),
        )
    }

    pub const fn king_side(&self) -> bool {
        self.rook_from.file() > self.king_from.file()
    }

    /// Squares that must be empty, the castling king and rook aside.
    #[inline]
    pub fn must_be_empty(&self) -> Bitboard {
        self.on_rank(Self::must_be_empty_files(
            self.king_from.file(),
            self.rook_from.file(),
        ))
    }

    /// The files of the squares that must be empty for the castle of a king on `king_file`
    /// with the rook on `rook_file`, as bits of one rank.
    #[inline]
    pub fn must_be_empty_files(king_file: u8, rook_file: u8) -> u8 {
        RANK_MASKS[king_file as usize & 7][rook_file as usize & 7].0
    }

    /// Squares the king passes or lands on; none may be attacked.
    #[inline]
    pub fn king_path(&self) -> Bitboard {
        self.on_rank(RANK_MASKS[self.king_from.file() as usize][self.rook_from.file() as usize].1)
    }

    /// The squares of the castle's rank whose files are the bits of `files`.
    #[inline]
    fn on_rank(&self, files: u8) -> Bitboard {
        Bitboard(u64::from(files) << (8 * self.king_from.rank()))
    }
}

/// Files strictly between `a` and `b`, as bits of one rank.
const fn files_between(a: u8, b: u8) -> u8 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    let mut bits = 0u8;
    let mut file = low + 1;
    while file < high {
        bits |= 1 << file;
        file += 1;
    }
    bits
}

/// By king file and rook file: the files that must be empty (the king and rook aside) and the
/// files of the king's path. Castling is checked at every node where a right remains, and two
/// lookups here are cheaper than working the squares out each time.
const RANK_MASKS: [[(u8, u8); 8]; 8] = {
    let mut masks = [[(0u8, 0u8); 8]; 8];
    let mut king = 0u8;
    while king < 8 {
        let mut rook = 0u8;
        while rook < 8 {
            let (king_to, rook_to) = landing_files(rook > king);
            let path = files_between(king, king_to) | 1 << king_to;
            let spans = path | files_between(rook, rook_to) | 1 << rook_to;
            masks[king as usize][rook as usize] = (spans & !(1 << king) & !(1 << rook), path);
            rook += 1;
        }
        king += 1;
    }
    masks
};

/// How castling is written, in the FEN castling field and in UCI moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingNotation {
    /// Standard chess: `KQkq`, castling as the king's two-square step (`e1g1`).
    #[default]
    Standard,
    /// Chess960 in X-FEN: `KQkq` for the outermost rook of a side and the rook's file letter
    /// for an inner one; castling as the king taking its own rook (`e1h1`).
    XFen,
    /// Chess960 in Shredder-FEN: the rooks' file letters (`HAha`); castling as the king taking
    /// its own rook.
    Shredder,
}

impl CastlingNotation {
    /// Whether castling moves are written king-to-rook, as engines do with `UCI_Chess960`.
    pub const fn is_chess960(self) -> bool {
        !matches!(self, CastlingNotation::Standard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_castles_are_the_chess960_rule_with_home_squares() {
        let short = CastlingSquares::standard(Color::White, true);
        assert_eq!(
            (short.king_to, short.rook_from, short.rook_to),
            (Square::G1, Square::H1, Square::F1)
        );
        assert_eq!(
            short.must_be_empty(),
            Bitboard::EMPTY.with(Square::F1).with(Square::G1)
        );
        let long = CastlingSquares::standard(Color::Black, false);
        assert_eq!(
            (long.king_to, long.rook_from, long.rook_to),
            (Square::C8, Square::A8, Square::D8)
        );
        assert_eq!(
            long.must_be_empty(),
            Bitboard::EMPTY
                .with(Square::B8)
                .with(Square::C8)
                .with(Square::D8)
        );
        assert_eq!(
            long.king_path(),
            Bitboard::EMPTY.with(Square::D8).with(Square::C8)
        );
    }

    #[test]
    fn a_chess960_castle_may_leave_the_king_in_place_or_jump_the_rook_over_it() {
        // King g1, rook h1: the king stays, the rook lands on f1.
        let stay = CastlingSquares::new(Square::G1, Square::H1);
        assert_eq!(stay.king_to, Square::G1);
        assert_eq!(stay.must_be_empty(), Bitboard::EMPTY.with(Square::F1));
        assert_eq!(stay.king_path(), Bitboard::EMPTY.with(Square::G1));
        // King b1, rook c1 on the king side: the rook passes over the king's start.
        let jump = CastlingSquares::new(Square::B1, Square::C1);
        assert!(jump.king_side());
        assert_eq!((jump.king_to, jump.rook_to), (Square::G1, Square::F1));
        assert_eq!(
            jump.must_be_empty(),
            Bitboard::EMPTY
                .with(Square::D1)
                .with(Square::E1)
                .with(Square::F1)
                .with(Square::G1)
        );
        // King b1, rook a1: the king steps east to c1, the rook to d1.
        let long = CastlingSquares::new(Square::B1, Square::A1);
        assert!(!long.king_side());
        assert_eq!((long.king_to, long.rook_to), (Square::C1, Square::D1));
    }
}
