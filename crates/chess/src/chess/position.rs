//! A validated position with copy-make move application.
//!
//! Invariants upheld by [`Position::from_setup`] and [`Position::play`]: one king per side, the
//! kings not on adjacent squares, no pawns on the back ranks, no more pieces than promotions can give, the side not to move is not
//! in check, every castling rook stands on its side's back rank with its king, at most one on
//! each side of that king, and the en passant square is set only when an en passant capture is
//! legal (canonical en passant: a useless ep square would split one position in two).

use super::attacks;
use super::bitboard::Bitboard;
use super::castling::{CastlingNotation, CastlingSquares};
use super::moves::{Move, MoveKind};
use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Piece, Role};
use thiserror::Error;

/// `n` and the noun, singular for one.
fn counted(n: u32, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("{0} has no king")]
    MissingKing(Color),
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// Named on its own: the check rule alone would call it a check of the side not to move.
    #[error("the kings stand on adjacent squares ({white} and {black})")]
    AdjacentKings { white: Square, black: Square },
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    #[error(
        "{color} has {} and {} beyond the initial set, more than its 8 pawns account for",
        counted(*pawns, "pawn"),
        counted(*promoted, "piece")
    )]
    ImpossibleMaterial {
        color: Color,
        pawns: u32,
        promoted: u32,
    },
    #[error("{0} is in check but it is not their move")]
    OpponentInCheck(Color),
    #[error("castling right '{right}' without {missing}")]
    CastlingWithoutPieces { right: char, missing: String },
    #[error(
        "{color} has two castling rooks on the {side} side of its king ({first} and {second})"
    )]
    CastlingRooksOnOneSide {
        color: Color,
        side: &'static str,
        first: Square,
        second: Square,
    },
    #[error("en passant square {square}: {reason}")]
    InvalidEpSquare { square: Square, reason: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    /// The rooks that may still castle, each with the king of its color.
    castling_rooks: Bitboard,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// How castling is written; not part of the perft state.
    notation: CastlingNotation,
}

impl Position {
    /// Validates a setup; a legal ep square with no legal ep capture is dropped.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: setup.turn,
            castling_rooks: setup.castling_rooks,
            ep_square: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            notation: setup.castling_notation,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(piece, sq);
            }
        }
        for color in Color::ALL {
            match pos.pieces(color, Role::King).count() {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
        }
        let (white, black) = (pos.king(Color::White), pos.king(Color::Black));
        if attacks::king(white).contains(black) {
            return Err(PositionError::AdjacentKings { white, black });
        }
        if let Some(sq) = (pos.by_role[Role::Pawn.index()] & Bitboard::BACK_RANKS)
            .into_iter()
            .next()
        {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for color in Color::ALL {
            pos.validate_material(color)?;
        }
        if pos.is_in_check(!pos.turn) {
            return Err(PositionError::OpponentInCheck(!pos.turn));
        }
        pos.validate_castling()?;
        if pos.notation == CastlingNotation::Standard && !pos.castling_is_standard() {
            pos.notation = CastlingNotation::XFen;
        }
        if let Some(ep) = setup.ep_square {
            pos.validate_ep(ep)?;
            if pos.ep_capture_is_legal(ep) {
                pos.ep_square = Some(ep);
            }
        }
        Ok(pos)
    }

    /// Every piece beyond the initial set (a second queen, a third rook or knight, a second bishop
    /// on one square color) must come from a promotion of one of the 8 pawns. This also keeps the
    /// legal moves within a move list: a board of queens can have more than it holds, while the
    /// most known with this material is 218.
    fn validate_material(&self, color: Color) -> Result<(), PositionError> {
        let extra = |pieces: Bitboard, initial: u32| pieces.count().saturating_sub(initial);
        let bishops = self.pieces(color, Role::Bishop);
        let pawns = self.pieces(color, Role::Pawn).count();
        let promoted = extra(self.pieces(color, Role::Queen), 1)
            + extra(self.pieces(color, Role::Rook), 2)
            + extra(self.pieces(color, Role::Knight), 2)
            + extra(bishops & Bitboard::DARK_SQUARES, 1)
            + extra(bishops & !Bitboard::DARK_SQUARES, 1);
        if pawns + promoted > 8 {
            return Err(PositionError::ImpossibleMaterial {
                color,
                pawns,
                promoted,
            });
        }
        Ok(())
    }

    /// Each castling rook stands on its side's back rank with its king, at most one on each
    /// side of that king.
    fn validate_castling(&self) -> Result<(), PositionError> {
        for rook in self.castling_rooks {
            let Some(color) = Color::of_back_rank(rook.rank()) else {
                return Err(PositionError::CastlingWithoutPieces {
                    right: char::from(b'a' + rook.file()),
                    missing: format!("a rook on a back rank (it is on {rook})"),
                });
            };
            let missing = if self.piece_at(rook) != Some(Piece::new(color, Role::Rook)) {
                format!("a {color} rook on {rook}")
            } else if self.king(color).rank() != rook.rank() {
                format!("the {color} king on rank {}", rook.rank() + 1)
            } else {
                continue;
            };
            return Err(PositionError::CastlingWithoutPieces {
                right: self.to_setup().castling_letter(rook),
                missing,
            });
        }
        for color in Color::ALL {
            for king_side in [true, false] {
                let rooks = self.castling_rooks_on(color, king_side);
                if rooks.more_than_one() {
                    let first = rooks.lsb();
                    return Err(PositionError::CastlingRooksOnOneSide {
                        color,
                        side: if king_side { "king" } else { "queen" },
                        first,
                        second: rooks.without(first).lsb(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether every castling right is one of standard chess (king on the e-file, rook in the
    /// corner).
    fn castling_is_standard(&self) -> bool {
        self.castling_rooks.into_iter().all(|rook| {
            let color = Color::of_back_rank(rook.rank()).unwrap_or(Color::Black);
            let king_side = rook.file() > self.king(color).file();
            CastlingSquares::standard(color, king_side)
                == CastlingSquares::new(self.king(color), rook)
        })
    }

    /// The ep square must sit behind an enemy pawn that could just have double-pushed.
    fn validate_ep(&self, ep: Square) -> Result<(), PositionError> {
        let them = !self.turn;
        let invalid = |reason: String| PositionError::InvalidEpSquare { square: ep, reason };
        let (pawn_sq, origin) = match (them, ep.rank()) {
            (Color::White, 2) => (Square::new(ep.to_u8() + 8), Square::new(ep.to_u8() - 8)),
            (Color::Black, 5) => (Square::new(ep.to_u8() - 8), Square::new(ep.to_u8() + 8)),
            _ => {
                let rank = if them == Color::White { 3 } else { 6 };
                return Err(invalid(format!(
                    "with {} to move it must be on rank {rank}",
                    self.turn
                )));
            }
        };
        if self.piece_at(pawn_sq) != Some(Piece::new(them, Role::Pawn)) {
            return Err(invalid(format!("no {them} pawn on {pawn_sq}")));
        }
        if self.occupied().contains(ep) || self.occupied().contains(origin) {
            return Err(invalid(format!(
                "{ep} and {origin} must be empty after a double push"
            )));
        }
        Ok(())
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The rooks that may still castle.
    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling_rooks
    }

    /// The castling rooks of `color` on one side of its king.
    #[inline]
    fn castling_rooks_on(&self, color: Color, king_side: bool) -> Bitboard {
        let king = self.king(color);
        let rooks =
            self.castling_rooks & self.by_color[color.index()] & Bitboard::rank(king.rank());
        let beyond_king = if king_side {
            Bitboard(!0u64 << king.index() << 1)
        } else {
            Bitboard((1u64 << king.index()) - 1)
        };
        rooks & beyond_king
    }

    /// The rook with which `color` may castle on one side.
    #[inline]
    pub fn castling_rook(&self, color: Color, king_side: bool) -> Option<Square> {
        self.castling_rooks_on(color, king_side).single_square()
    }

    /// The squares of the castle `color` may still make on one side.
    pub fn castling_squares(&self, color: Color, king_side: bool) -> Option<CastlingSquares> {
        self.castling_rook(color, king_side)
            .map(|rook| CastlingSquares::new(self.king(color), rook))
    }

    /// How castling is written for this position (FEN and UCI moves).
    #[inline]
    pub fn notation(&self) -> CastlingNotation {
        self.notation
    }

    /// The same position, castling written as `notation` says; a Chess960 castle (a king off
    /// the e-file or a rook out of its corner) cannot be written in standard notation and keeps
    /// X-FEN.
    pub fn with_notation(&self, notation: CastlingNotation) -> Position {
        let mut pos = *self;
        pos.notation = if notation == CastlingNotation::Standard && !self.castling_is_standard() {
            CastlingNotation::XFen
        } else {
            notation
        };
        pos
    }

    /// The canonical en passant square: set only when an ep capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|role| self.by_role[role.index()].contains(sq))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }

    /// The setup this position came from (canonical ep).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index()] = self.piece_at(sq);
        }
        setup.turn = self.turn;
        setup.castling_rooks = self.castling_rooks;
        setup.castling_notation = self.notation;
        setup.ep_square = self.ep_square;
        setup.halfmove_clock = self.halfmove_clock;
        setup.fullmove_number = self.fullmove_number;
        setup
    }

    /// All pieces of either color attacking `sq` with the given occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bishops = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (attacks::knight(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king(sq) & self.by_role[Role::King.index()])
            | (attacks::rook(sq, occupied) & rooks)
            | (attacks::bishop(sq, occupied) & bishops)
    }

    /// Whether any piece of `by` attacks `sq` with the given occupancy.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color[by.index()];
        let queens = self.by_role[Role::Queen.index()];
        (attacks::knight(sq) & self.by_role[Role::Knight.index()] & theirs).any()
            || (attacks::pawn(!by, sq) & self.by_role[Role::Pawn.index()] & theirs).any()
            || (attacks::king(sq) & self.by_role[Role::King.index()] & theirs).any()
            || (attacks::rook(sq, occupied) & (self.by_role[Role::Rook.index()] | queens) & theirs)
                .any()
            || (attacks::bishop(sq, occupied)
                & (self.by_role[Role::Bishop.index()] | queens)
                & theirs)
                .any()
    }

    pub fn is_in_check(&self, color: Color) -> bool {
        self.is_attacked_by(self.king(color), !color, self.occupied())
    }

    /// Checkers of the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king(self.turn);
        self.attackers_to(king, self.occupied()) & self.by_color[(!self.turn).index()]
    }

    /// Whether some pawn of the side to move can legally capture en passant onto `ep`.
    /// Plays each capture on the occupancy and asks whether the king is then attacked; this
    /// covers pins, checks and the rank-wide discovered check when both pawns leave the rank.
    pub fn ep_capture_is_legal(&self, ep: Square) -> bool {
        let us = self.turn;
        let them = !us;
        let captured = match us {
            Color::White => Square::new(ep.to_u8() - 8),
            Color::Black => Square::new(ep.to_u8() + 8),
        };
        let capturers = attacks::pawn(them, ep) & self.pieces(us, Role::Pawn);
        capturers
            .into_iter()
            .any(|from| self.ep_capture_from_is_legal(from, ep, captured))
    }

    #[inline]
    pub(crate) fn ep_capture_from_is_legal(
        &self,
        from: Square,
        ep: Square,
        captured: Square,
    ) -> bool {
        let us = self.turn;
        let king = self.king(us);
        let occupied = (self.occupied().without(from).without(captured)).with(ep);
        let theirs = self.by_color[(!us).index()].without(captured);
        let queens = self.by_role[Role::Queen.index()];
        let rooks = (self.by_role[Role::Rook.index()] | queens) & theirs;
        let bishops = (self.by_role[Role::Bishop.index()] | queens) & theirs;
        let others = (attacks::knight(king) & self.by_role[Role::Knight.index()]
            | attacks::pawn(us, king) & self.by_role[Role::Pawn.index()])
            & theirs;
        (attacks::rook(king, occupied) & rooks).is_empty()
            && (attacks::bishop(king, occupied) & bishops).is_empty()
            && others.is_empty()
    }

    /// The position after `m`, which must be legal here (copy-make).
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let kind = m.kind();
        if kind == MoveKind::Castle {
            return self.play_castle(CastlingSquares::new(from, to));
        }
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let to_bb = Bitboard::from_square(to);
        let is_capture = self.by_color[them.index()].contains(to);

        // Clear a captured piece (whatever its role) from the target square.
        if is_capture {
            for bb in next.by_role.iter_mut() {
                *bb &= !to_bb;
            }
            next.by_color[them.index()] &= !to_bb;
        }
        next.by_role[role.index()] ^= from_to;
        next.by_color[us.index()] ^= from_to;

        match kind {
            MoveKind::EnPassant => {
                let captured = match us {
                    Color::White => Square::new(to.to_u8() - 8),
                    Color::Black => Square::new(to.to_u8() + 8),
                };
                let bb = Bitboard::from_square(captured);
                next.by_role[Role::Pawn.index()] ^= bb;
                next.by_color[them.index()] ^= bb;
            }
            kind => {
                if let Some(promoted) = kind.promotion() {
                    next.by_role[Role::Pawn.index()] ^= to_bb;
                    next.by_role[promoted.index()] ^= to_bb;
                }
            }
        }

        // A right is lost when its rook moves or is taken, and both when the king moves.
        next.castling_rooks = self.castling_rooks & !from_to;
        if role == Role::King {
            next.castling_rooks &= !self.by_color[us.index()];
        }
        next.turn = them;
        next.ep_square = None;
        next.count_move(self, role == Role::Pawn || is_capture);
        if kind == MoveKind::DoublePush {
            let ep = Square::new((from.to_u8() + to.to_u8()) / 2);
            if (attacks::pawn(us, ep) & next.pieces(them, Role::Pawn)).any()
                && next.ep_capture_is_legal(ep)
            {
                next.ep_square = Some(ep);
            }
        }
        next
    }

    /// The position after castling: king and rook are lifted before they are put down, since
    /// in Chess960 either may land where the other stood.
    fn play_castle(&self, squares: CastlingSquares) -> Position {
        let mut next = *self;
        let us = self.turn;
        let king = &mut next.by_role[Role::King.index()];
        *king = king.without(squares.king_from).with(squares.king_to);
        let rooks = &mut next.by_role[Role::Rook.index()];
        *rooks = rooks.without(squares.rook_from).with(squares.rook_to);
        let ours = &mut next.by_color[us.index()];
        *ours = ours
            .without(squares.king_from)
            .without(squares.rook_from)
            .with(squares.king_to)
            .with(squares.rook_to);
        next.castling_rooks &= !self.by_color[us.index()];
        next.turn = !us;
        next.ep_square = None;
        next.count_move(self, false);
        next
    }

    /// Advances the move counters past a move of `parent`. They stop at the largest value a
    /// FEN can hold instead of wrapping: a fullmove number of 0 would not parse.
    #[inline]
    fn count_move(&mut self, parent: &Position, resets_clock: bool) {
        self.halfmove_clock = if resets_clock {
            0
        } else {
            parent.halfmove_clock.saturating_add(1)
        };
        if parent.turn == Color::Black {
            self.fullmove_number = parent.fullmove_number.saturating_add(1);
        }
    }

    /// Placement, side to move, castling rights and (canonical) ep square are equal: the
    /// positions have the same perft subtree. Move counters are ignored.
    pub fn same_perft_state(&self, other: &Position) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.castling_rooks == other.castling_rooks
            && self.ep_square == other.ep_square
    }
}
