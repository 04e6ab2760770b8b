//! A validated position with copy-make move application.
//!
//! Invariants upheld by [`Position::from_setup`] and [`Position::play`]: one king per side, no
//! pawns on the back ranks, no more pieces than promotions can give, the side not to move is not
//! in check, every castling right has its king and rook on their home squares, and the en passant
//! square is set only when an en passant capture is legal (canonical en passant: a useless ep
//! square would split one position in two).

use super::attacks;
use super::bitboard::Bitboard;
use super::fen::{self, FenError};
use super::moves::{Move, MoveKind};
use super::setup::Setup;
use super::square::Square;
use super::types::{CastlingRights, Color, Piece, Role};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("{0} has no king")]
    MissingKing(Color),
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    #[error(
        "{color} has {pawns} pawns and {promoted} pieces beyond the initial set, more than its \
         8 pawns account for"
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
    #[error("en passant square {square}: {reason}")]
    InvalidEpSquare { square: Square, reason: String },
}

/// Why a FEN string did not give a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("invalid FEN: {0}")]
    Fen(FenError),
    #[error("illegal position: {0}")]
    Position(PositionError),
}

// Written out instead of `#[from]`, which would also make the inner error the `source` and
// print its message twice in an error chain.
impl From<FenError> for ParseError {
    fn from(err: FenError) -> ParseError {
        ParseError::Fen(err)
    }
}

impl From<PositionError> for ParseError {
    fn from(err: PositionError) -> ParseError {
        ParseError::Position(err)
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
}

/// Castling rights lost by a move touching each square (a king or rook leaving home, or a rook
/// being captured on its home square).
const CASTLING_LOST: [CastlingRights; 64] = {
    let mut lost = [CastlingRights::NONE; 64];
    lost[Square::A1.index()] = CastlingRights::WHITE_QUEEN;
    lost[Square::E1.index()] = CastlingRights::WHITE_KING.with(CastlingRights::WHITE_QUEEN);
    lost[Square::H1.index()] = CastlingRights::WHITE_KING;
    lost[Square::A8.index()] = CastlingRights::BLACK_QUEEN;
    lost[Square::E8.index()] = CastlingRights::BLACK_KING.with(CastlingRights::BLACK_QUEEN);
    lost[Square::H8.index()] = CastlingRights::BLACK_KING;
    lost
};

/// King and rook squares of one castling right.
pub struct CastlingSquares {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
}

impl CastlingSquares {
    pub const fn of(color: Color, king_side: bool) -> CastlingSquares {
        let (kf, kt, rf, rt) = if king_side {
            (4, 6, 7, 5)
        } else {
            (4, 2, 0, 3)
        };
        let base = match color {
            Color::White => 0,
            Color::Black => 56,
        };
        CastlingSquares {
            king_from: Square::new(base + kf),
            king_to: Square::new(base + kt),
            rook_from: Square::new(base + rf),
            rook_to: Square::new(base + rt),
        }
    }
}

impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(fen::START_FEN).expect("the start position is valid")
    }

    pub fn from_fen(fen: &str) -> Result<Position, ParseError> {
        Ok(Position::from_setup(&fen::parse(fen)?)?)
    }

    pub fn to_fen(&self) -> String {
        fen::format(self)
    }

    /// Validates a setup; a legal ep square with no legal ep capture is dropped.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: setup.turn,
            castling: setup.castling,
            ep_square: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
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

    fn validate_castling(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            for king_side in [true, false] {
                let right = CastlingRights::single(color, king_side);
                if !self.castling.contains(right) {
                    continue;
                }
                let squares = CastlingSquares::of(color, king_side);
                let letter = right.to_string().chars().next().unwrap_or('-');
                if self.piece_at(squares.king_from) != Some(Piece::new(color, Role::King)) {
                    return Err(PositionError::CastlingWithoutPieces {
                        right: letter,
                        missing: format!("the {color} king on {}", squares.king_from),
                    });
                }
                if self.piece_at(squares.rook_from) != Some(Piece::new(color, Role::Rook)) {
                    return Err(PositionError::CastlingWithoutPieces {
                        right: letter,
                        missing: format!("a {color} rook on {}", squares.rook_from),
                    });
                }
            }
        }
        Ok(())
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

    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
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
        setup.castling = self.castling;
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

        match m.kind() {
            MoveKind::EnPassant => {
                let captured = match us {
                    Color::White => Square::new(to.to_u8() - 8),
                    Color::Black => Square::new(to.to_u8() + 8),
                };
                let bb = Bitboard::from_square(captured);
                next.by_role[Role::Pawn.index()] ^= bb;
                next.by_color[them.index()] ^= bb;
            }
            MoveKind::Castle => {
                let squares = CastlingSquares::of(us, to.file() == 6);
                let rook_bb = Bitboard::from_square(squares.rook_from)
                    | Bitboard::from_square(squares.rook_to);
                next.by_role[Role::Rook.index()] ^= rook_bb;
                next.by_color[us.index()] ^= rook_bb;
            }
            kind => {
                if let Some(promoted) = kind.promotion() {
                    next.by_role[Role::Pawn.index()] ^= to_bb;
                    next.by_role[promoted.index()] ^= to_bb;
                }
            }
        }

        next.castling = self
            .castling
            .without(CASTLING_LOST[from.index()])
            .without(CASTLING_LOST[to.index()]);
        next.turn = them;
        next.ep_square = None;
        // The counters stop at the largest value a FEN can hold instead of wrapping: a
        // fullmove number of 0 would not parse.
        next.halfmove_clock = if role == Role::Pawn || is_capture {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        if m.kind() == MoveKind::DoublePush {
            let ep = Square::new((from.to_u8() + to.to_u8()) / 2);
            if (attacks::pawn(us, ep) & next.pieces(them, Role::Pawn)).any()
                && next.ep_capture_is_legal(ep)
            {
                next.ep_square = Some(ep);
            }
        }
        next
    }

    /// Placement, side to move, castling rights and (canonical) ep square are equal: the
    /// positions have the same perft subtree. Move counters are ignored.
    pub fn same_perft_state(&self, other: &Position) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
    }
}
