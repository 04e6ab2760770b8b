//! Move-type statistics of a perft: what the last move of each counted line was.
//!
//! The definitions, one leaf (one line of `depth` plies) at a time, by its last move `m` from
//! the position before it to the position after it:
//! - `captures`: `m` takes a piece, en passant included (a castle, written as the king taking
//!   its own rook, is not a capture);
//! - `en_passant`, `castles`, `promotions` (each of the four promotions of a pawn counts);
//! - `checks`: the side to move after `m` is in check, checkmates included (the Chess
//!   Programming Wiki's convention);
//! - `discovered_checks`: exactly one piece gives check and it is not the piece `m` moved (for
//!   a castle the rook, for a promotion the new piece, for en passant the capturing pawn);
//! - `double_checks`: two pieces give check (never counted as discovered as well);
//! - `checkmates`: in check with no legal move; `stalemates`: not in check with no legal move.
//!
//! Discovered and double checks include checkmates here; the wiki's tables leave the mates out
//! of those two columns (see `assets/perft-stats-disputes.tsv`).

use super::castling::CastlingSquares;
use super::movegen::count_legal;
use super::moves::{Move, MoveKind};
use super::position::Position;
use std::ops::{Add, AddAssign};

/// How many statistics there are, in the order of [`STAT_NAMES`].
pub const STAT_COUNT: usize = 9;

/// The statistics' names, as JSON keys and in the order of [`MoveStats::values`].
pub const STAT_NAMES: [&str; STAT_COUNT] = [
    "captures",
    "en_passant",
    "castles",
    "promotions",
    "checks",
    "discovered_checks",
    "double_checks",
    "checkmates",
    "stalemates",
];

/// Counts of the last moves of a perft's lines by type. 128-bit, like the leaf counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveStats {
    pub captures: u128,
    pub en_passant: u128,
    pub castles: u128,
    pub promotions: u128,
    pub checks: u128,
    pub discovered_checks: u128,
    pub double_checks: u128,
    pub checkmates: u128,
    pub stalemates: u128,
}

impl MoveStats {
    /// The statistics in the order of [`STAT_NAMES`].
    pub const fn values(&self) -> [u128; STAT_COUNT] {
        [
            self.captures,
            self.en_passant,
            self.castles,
            self.promotions,
            self.checks,
            self.discovered_checks,
            self.double_checks,
            self.checkmates,
            self.stalemates,
        ]
    }

    /// The statistics from values in the order of [`STAT_NAMES`].
    pub const fn from_values(v: [u128; STAT_COUNT]) -> MoveStats {
        MoveStats {
            captures: v[0],
            en_passant: v[1],
            castles: v[2],
            promotions: v[3],
            checks: v[4],
            discovered_checks: v[5],
            double_checks: v[6],
            checkmates: v[7],
            stalemates: v[8],
        }
    }

    /// The statistics of `paths` subtrees like this one.
    pub fn times(self, paths: u128) -> MoveStats {
        MoveStats::from_values(self.values().map(|v| v * paths))
    }

    /// The statistics of the one line that ends with `m` played in `pos` (the reference
    /// classification: it plays the move and counts the checkers and the replies).
    pub fn of_move(pos: &Position, m: Move) -> MoveStats {
        let child = pos.play(m);
        let kind = m.kind();
        let moved_to = match kind {
            MoveKind::Castle => CastlingSquares::new(m.from(), m.to()).rook_to,
            _ => m.to(),
        };
        let checkers = child.checkers();
        let check = checkers.any();
        let double = checkers.more_than_one();
        let discovered = check && !double && !checkers.contains(moved_to);
        let no_reply = count_legal(&child) == 0;
        let is_capture = kind == MoveKind::EnPassant
            || (kind != MoveKind::Castle && pos.piece_at(m.to()).is_some());
        MoveStats {
            captures: u128::from(is_capture),
            en_passant: u128::from(kind == MoveKind::EnPassant),
            castles: u128::from(kind == MoveKind::Castle),
            promotions: u128::from(kind.promotion().is_some()),
            checks: u128::from(check),
            discovered_checks: u128::from(discovered),
            double_checks: u128::from(double),
            checkmates: u128::from(check && no_reply),
            stalemates: u128::from(!check && no_reply),
        }
    }
}

impl Add for MoveStats {
    type Output = MoveStats;
    fn add(self, rhs: MoveStats) -> MoveStats {
        let (a, b) = (self.values(), rhs.values());
        MoveStats::from_values(std::array::from_fn(|i| a[i] + b[i]))
    }
}

impl AddAssign for MoveStats {
    fn add_assign(&mut self, rhs: MoveStats) {
        *self = *self + rhs;
    }
}

impl std::iter::Sum for MoveStats {
    fn sum<I: Iterator<Item = MoveStats>>(iter: I) -> MoveStats {
        iter.fold(MoveStats::default(), Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::chess::uci;

    fn stats_of(fen: &str, uci: &str) -> MoveStats {
        let pos = Position::from_setup(&fen::parse(fen).unwrap()).unwrap();
        let m = uci::parse_move(&pos, uci).unwrap();
        MoveStats::of_move(&pos, m)
    }

    #[test]
    fn a_capture_that_mates() {
        // Scholar's mate: Qxf7#.
        let s = stats_of(
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        );
        assert_eq!((s.captures, s.checks, s.checkmates), (1, 1, 1));
        assert_eq!(
            (s.discovered_checks, s.double_checks, s.stalemates),
            (0, 0, 0)
        );
    }

    #[test]
    fn a_castle_that_checks_with_its_rook_is_direct() {
        let s = stats_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!((s.castles, s.captures, s.checks), (1, 0, 1));
        assert_eq!(s.discovered_checks, 0);
    }

    #[test]
    fn en_passant_discovers_a_check_along_the_rank() {
        // bxa6 e.p. removes the b5 pawn... here the captured pawn shields the king on the file.
        let s = stats_of("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "b5c6");
        assert_eq!((s.captures, s.en_passant), (1, 1));
        assert_eq!(
            s.checks, 0,
            "the rook on h5 sees a5 only if the move is illegal"
        );
        let s = stats_of("4k3/8/8/2pP4/8/8/8/2R1K3 w - c6 0 1", "d5c6");
        assert_eq!((s.en_passant, s.checks), (1, 0));
        let s = stats_of("2k5/8/8/2pP4/8/8/8/2R1K3 w - c6 0 1", "d5c6");
        assert_eq!((s.en_passant, s.checks, s.discovered_checks), (1, 1, 1));
    }

    #[test]
    fn a_promotion_checks_with_the_new_piece_and_a_double_check_is_not_discovered() {
        let s = stats_of("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q");
        assert_eq!((s.promotions, s.checks, s.discovered_checks), (1, 1, 0));
        let s = stats_of("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n");
        assert_eq!((s.promotions, s.checks), (1, 0));
        // Nf6 uncovers the rook's file and checks itself.
        let s = stats_of("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4f6");
        assert_eq!((s.checks, s.discovered_checks, s.double_checks), (1, 0, 1));
        let s = stats_of("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5");
        assert_eq!((s.checks, s.discovered_checks, s.double_checks), (1, 1, 0));
    }

    #[test]
    fn a_stalemate() {
        let s = stats_of("7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "g6f7");
        assert_eq!((s.checks, s.stalemates, s.checkmates), (0, 1, 0));
    }

    #[test]
    fn values_and_names_agree_in_order() {
        let s = MoveStats::from_values(std::array::from_fn(|i| i as u128 + 1));
        assert_eq!(s.values()[4], s.checks);
        assert_eq!(STAT_NAMES[4], "checks");
        assert_eq!(s.times(2).stalemates, 18);
        assert_eq!((s + s).captures, 2);
    }
}
