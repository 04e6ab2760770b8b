//! Pure chess: board representation, FEN, legal move generation and position keys.

pub mod attacks;
pub mod bitboard;
pub mod castling;
pub mod castling_files;
pub mod fen;
pub mod magic_search;
pub mod move_stat;
pub mod move_stats;
pub mod movegen;
pub mod moves;
pub mod nybble;
pub mod nybble_codes;
pub mod perft;
pub mod position;
pub mod rng;
pub mod seed;
pub mod setup;
pub mod specialized;
pub mod square;
pub mod types;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{CastlingNotation, CastlingSquares};
pub use fen::{FenError, ParseError};
pub use move_stat::{CheckKind, Convention, MoveStat, STAT_COUNT, TALLIED_COUNT};
pub use move_stats::MoveStats;
pub use moves::{Move, MoveKind, MoveList};
pub use nybble::NybbleBoard;
pub use position::{Position, PositionError};
pub use seed::{parse_seed, SeedError};
pub use setup::Setup;
pub use square::Square;
pub use types::{Color, Piece, Role};
pub use zobrist::{Hash128, Zobrist};
