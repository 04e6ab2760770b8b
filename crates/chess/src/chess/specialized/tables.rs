//! Attack tables laid out for the specialised generator: fixed-size arrays indexed by squares
//! (no bounds checks), the reach sets that tell which enemy pieces can attack the squares
//! around a king and on its castling paths, and slider tables indexed either by magic
//! multiplication or by PEXT.
//!
//! Everything is copied from [`crate::chess::attacks`] and [`crate::chess::magic_search`] at
//! first use, so both generators answer from the same attack sets.

use crate::chess::attacks;
use crate::chess::bitboard::Bitboard;
use crate::chess::magic_search::{relevant_mask, subsets, BISHOP_DIRS, ROOK_DIRS};
use crate::chess::square::Square;
use crate::chess::types::Color;
use std::sync::OnceLock;

/// Knights, kings, pawns, rays between squares, lines through them, sliders' rays on the empty
/// board, and reach sets.
pub struct Leapers {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    between: Box<[[Bitboard; 64]; 64]>,
    /// The full line through two squares (edge to edge) when they are aligned, else empty.
    line: Box<[[Bitboard; 64]; 64]>,
    /// Which enemy pieces can attack the squares next to the king on this square.
    next_to_king_reach: [Reach; 64],
    /// Which enemy pieces can attack the squares next to the king on this square or the
    /// squares of its rank from the c- to the g-file: every square a castling king passes or
    /// lands on, in Chess960 too (it lands on the c- or g-file, from between the rooks).
    castling_reach: [Reach; 64],
    /// A bishop's attacks from this square on an empty board. The slider tables hold the same
    /// sets (at index 0), but read through them the castling test made Kiwipete 18% slower.
    bishop_rays: [Bitboard; 64],
    /// A rook's attacks from this square on an empty board.
    rook_rays: [Bitboard; 64],
}

impl Leapers {
    pub fn get() -> &'static Leapers {
        static LEAPERS: OnceLock<Leapers> = OnceLock::new();
        LEAPERS.get_or_init(Leapers::build)
    }

    fn build() -> Leapers {
        let squares = || (0..64u8).map(Square::new);
        let by_square = |f: &dyn Fn(Square) -> Bitboard| {
            let mut out = [Bitboard::EMPTY; 64];
            for sq in squares() {
                out[sq.index()] = f(sq);
            }
            out
        };
        let pairs = |f: &dyn Fn(Square, Square) -> Bitboard| {
            let mut out = Box::new([[Bitboard::EMPTY; 64]; 64]);
            for a in squares() {
                for b in squares() {
                    out[a.index()][b.index()] = f(a, b);
                }
            }
            out
        };
        let knight = by_square(&attacks::knight);
        let bishop_rays = by_square(&|sq| attacks::bishop(sq, Bitboard::EMPTY));
        let rook_rays = by_square(&|sq| attacks::rook(sq, Bitboard::EMPTY));
        // A piece's attacks are symmetric: it reaches the zone from the squares it attacks
        // from the zone's squares.
        let reach = |zone: &dyn Fn(Square) -> Bitboard| {
            let mut out = [Reach::default(); 64];
            for king in squares() {
                let from = |attacks: &[Bitboard; 64]| {
                    zone(king)
                        .into_iter()
                        .fold(Bitboard::EMPTY, |all, sq| all | attacks[sq.index()])
                };
                out[king.index()] = Reach {
                    knight: from(&knight),
                    bishop: from(&bishop_rays),
                    rook: from(&rook_rays),
                };
            }
            out
        };
        let c_to_g_files =
            (2..=6).fold(Bitboard::EMPTY, |files, file| files | Bitboard::file(file));
        Leapers {
            knight,
            king: by_square(&attacks::king),
            pawn: [
                by_square(&|sq| attacks::pawn(Color::White, sq)),
                by_square(&|sq| attacks::pawn(Color::Black, sq)),
            ],
            between: pairs(&attacks::between),
            line: pairs(&attacks::line),
            next_to_king_reach: reach(&attacks::king),
            castling_reach: reach(&|king| {
                attacks::king(king) | (c_to_g_files & Bitboard::rank(king.rank()))
            }),
            bishop_rays,
            rook_rays,
        }
    }

    #[inline(always)]
    pub fn knight(&self, sq: Square) -> Bitboard {
        self.knight[sq.index()]
    }

    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        self.king[sq.index()]
    }

    /// Squares a pawn of `color` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn[color.index()][sq.index()]
    }

    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index()][b.index()]
    }

    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index()][b.index()]
    }

    #[inline(always)]
    pub fn next_to_king_reach(&self, king: Square) -> &Reach {
        &self.next_to_king_reach[king.index()]
    }

    #[inline(always)]
    pub fn castling_reach(&self, king: Square) -> &Reach {
        &self.castling_reach[king.index()]
    }

    #[inline(always)]
    pub fn bishop_rays(&self, sq: Square) -> Bitboard {
        self.bishop_rays[sq.index()]
    }

    #[inline(always)]
    pub fn rook_rays(&self, sq: Square) -> Bitboard {
        self.rook_rays[sq.index()]
    }
}

/// The squares from which an enemy knight, bishop or rook on an empty board attacks some
/// square of a zone: only those pieces' attacks are looked up to find what of the zone they
/// attack.
#[derive(Clone, Copy, Default)]
pub struct Reach {
    pub knight: Bitboard,
    pub bishop: Bitboard,
    pub rook: Bitboard,
}

/// One slider's lookup on one square: the relevant-occupancy mask, its magic, and the square's
/// attack sets in the order of the table's index.
#[derive(Clone, Copy, Default)]
pub struct SliderSquare {
    pub mask: u64,
    pub magic: u64,
    /// `64 - mask.count_ones()`: the magic index and the PEXT index are both below
    /// `2^mask.count_ones()`, the length of `attacks`.
    pub shift: u32,
    pub attacks: &'static [Bitboard],
}

impl SliderSquare {
    /// Where `occupied`'s attack set lies in a magic-indexed table.
    #[inline(always)]
    pub fn magic_index(&self, occupied: Bitboard) -> usize {
        ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Both sliders' lookups for every square. Each table is built once per process and lives as
/// long as it: every square's attack sets are a leaked allocation of their own.
pub struct SliderTable {
    rook: [SliderSquare; 64],
    bishop: [SliderSquare; 64],
}

impl SliderTable {
    /// The table indexed as the main generator's magics index it.
    pub fn magic() -> &'static SliderTable {
        static MAGIC: OnceLock<SliderTable> = OnceLock::new();
        MAGIC.get_or_init(|| {
            SliderTable::build(
                attacks::rook_magics(),
                attacks::bishop_magics(),
                |_, occ, sq| sq.magic_index(Bitboard(occ)),
            )
        })
    }

    /// The table indexed by PEXT of the relevant occupancy: the carry-rippler order of the
    /// subsets of a mask is the order of their PEXT values, so a subset's number is its index.
    pub fn pext() -> &'static SliderTable {
        static PEXT: OnceLock<SliderTable> = OnceLock::new();
        PEXT.get_or_init(|| {
            SliderTable::build(
                attacks::rook_magics(),
                attacks::bishop_magics(),
                |subset_number, _, _| subset_number,
            )
        })
    }

    fn build(
        rook_magics: &[attacks::Magic; 64],
        bishop_magics: &[attacks::Magic; 64],
        index: impl Fn(usize, u64, &SliderSquare) -> usize,
    ) -> SliderTable {
        let mut rook = [SliderSquare::default(); 64];
        let mut bishop = [SliderSquare::default(); 64];
        let fill = |squares: &mut [SliderSquare; 64],
                    magics: &[attacks::Magic; 64],
                    lookup: fn(Square, Bitboard) -> Bitboard,
                    dirs: &[(i8, i8); 4]| {
            for (sq, slot) in squares.iter_mut().enumerate() {
                let mask = relevant_mask(sq, dirs);
                assert_eq!(mask, magics[sq].mask);
                assert_eq!(magics[sq].shift, 64 - mask.count_ones());
                *slot = SliderSquare {
                    mask,
                    magic: magics[sq].magic,
                    shift: magics[sq].shift,
                    attacks: &[],
                };
                let mut attacks_of_square = vec![Bitboard::EMPTY; 1 << mask.count_ones()];
                for (subset_number, occ) in subsets(mask).enumerate() {
                    attacks_of_square[index(subset_number, occ, slot)] =
                        lookup(Square::new(sq as u8), Bitboard(occ));
                }
                slot.attacks = Vec::leak(attacks_of_square);
            }
        };
        fill(&mut rook, rook_magics, attacks::rook, &ROOK_DIRS);
        fill(&mut bishop, bishop_magics, attacks::bishop, &BISHOP_DIRS);
        SliderTable { rook, bishop }
    }

    #[inline(always)]
    pub fn rook_square(&self, sq: Square) -> &SliderSquare {
        &self.rook[sq.index()]
    }

    #[inline(always)]
    pub fn bishop_square(&self, sq: Square) -> &SliderSquare {
        &self.bishop[sq.index()]
    }
}
