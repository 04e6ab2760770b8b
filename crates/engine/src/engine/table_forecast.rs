//! How many positions a perft's transposition table will have stored when the run ends,
//! estimated from random walks before the search gets far.
//!
//! A CPU search with a table spends its time on the positions it stores (a miss expands the
//! position and counts its grandchildren), and it stores each distinct position of the plies it
//! probes once: the distinct positions `depth - 2` and `depth - 3` plies below the root, all but
//! a few of the stores. A table's stores so far say how far the run is only against that total,
//! which the stores themselves cannot show before the end (later subtrees meet more of the
//! table), so it is estimated here, independently of the search's order.
//!
//! Knuth's estimator: a walk that picks one of `b` legal moves uniformly at every ply reaches
//! a line with probability `1 / Π b`, so `Π b / n` over the walks' ends, where `n` is the number
//! of lines to the position reached ([`paths_to`]), averages to the distinct positions of that
//! ply.

use crate::chess::attacks;
use crate::chess::movegen::legal_moves;
use crate::chess::rng::SplitMix64;
use crate::chess::{Bitboard, Color, NybbleBoard, Position, Role, Square};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Walks per estimate: the estimate's relative error shrinks as one over the root of this,
/// and its time grows with it (counting the lines to a walk's end takes from microseconds in
/// the opening to milliseconds in an endgame, where kings and rooks reach a square many ways).
pub const WALKS: usize = 300;
/// The seed of the walks, fixed so that a position and depth always get the same estimate.
const WALK_SEED: u64 = 0x7461_626c_652d_6663;
/// Lines longer than this are not counted back (the search for the lines to a position grows
/// with their length): no estimate.
const MAX_LINE: u32 = 10;

/// The positions a table will store in a perft of `root` to `depth` whose search probes it at
/// every remaining depth of 2 and more: the distinct positions `depth - 2` and `depth - 3`
/// plies down, from [`WALKS`] random walks. `None` for a depth under 5 (nothing to estimate),
/// over `MAX_LINE + 2`, or when `stop` is set before the walks end.
pub fn expected_stores(root: &Position, depth: u32, stop: &AtomicBool) -> Option<f64> {
    if !(5..=MAX_LINE + 2).contains(&depth) {
        return None;
    }
    let plies = depth - 2;
    let mut rng = SplitMix64::new(WALK_SEED);
    let mut last_ply = 0.0;
    let mut ply_before = 0.0;
    for _ in 0..WALKS {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut position = *root;
        let mut weight = 1.0;
        let mut weight_before = 0.0;
        let mut before = *root;
        for ply in 0..plies {
            if ply == plies - 1 {
                weight_before = weight;
                before = position;
            }
            let moves = legal_moves(&position);
            if moves.is_empty() {
                weight = 0.0;
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
            weight *= moves.len() as f64;
            position = position.play(m);
        }
        if weight > 0.0 {
            ply_before += weight_before / paths_to(root, &before, plies - 1) as f64;
            last_ply += weight / paths_to(root, &position, plies) as f64;
        }
    }
    Some((last_ply + ply_before) / WALKS as f64)
}

/// The lines of `plies` moves from `root` that end on `end`'s perft state (placement, side to
/// move, castling rights, canonical en passant): a search of the lines from `root`, each
/// position's count remembered, that leaves a position as soon as a side has fewer moves left
/// than `end` needs of it.
pub fn paths_to(root: &Position, end: &Position, plies: u32) -> u64 {
    let mut paths = Paths {
        end: *end,
        known: HashMap::new(),
    };
    paths.from(root, plies)
}

/// The count of [`paths_to`].
struct Paths {
    end: Position,
    known: HashMap<(NybbleBoard, u32), u64>,
}

impl Paths {
    fn from(&mut self, position: &Position, plies: u32) -> u64 {
        if plies == 0 {
            return u64::from(position.same_perft_state(&self.end));
        }
        if !can_reach(position, &self.end, plies) {
            return 0;
        }
        let board = NybbleBoard::from_position(position);
        if let Some(&known) = self.known.get(&(board, plies)) {
            return known;
        }
        let total = legal_moves(position)
            .iter()
            .map(|&m| self.from(&position.play(m), plies - 1))
            .sum();
        self.known.insert((board, plies), total);
        total
    }
}

/// Whether `end` may be `plies` moves away from `position`, by counts that no line beats:
/// every square where `end` has a piece `position` lacks there takes as many moves of that
/// side as the nearest such piece (or a promotion, or a castle) needs to get there on an empty
/// board,
/// and every piece on a square where `end` lacks it takes a move unless it is captured; every
/// piece `end` lacks takes a capture by the other side; a side's pieces and pawns never grow in
/// number, and castling rights are never regained.
fn can_reach(position: &Position, end: &Position, plies: u32) -> bool {
    if end.castling_rooks() & !position.castling_rooks() != Bitboard::EMPTY {
        return false;
    }
    let mut needed = [0; 2];
    for color in Color::ALL {
        let pawns = |p: &Position| p.pieces(color, Role::Pawn).count();
        let pieces = |p: &Position| p.by_color(color).count();
        if pieces(position) < pieces(end) || pawns(position) < pawns(end) {
            return false;
        }
        // The fewest moves to a promotion, when one may happen (the pawns are fewer at the end).
        let promotion = (pawns(position) > pawns(end))
            .then(|| {
                position
                    .pieces(color, Role::Pawn)
                    .into_iter()
                    .map(|pawn| moves_to_promote(color, pawn))
                    .min()
            })
            .flatten();
        let may_castle = position.castling_rooks() & position.by_color(color) != Bitboard::EMPTY;
        let back_rank = match color {
            Color::White => 0,
            Color::Black => 7,
        };
        let mut arrivals = 0;
        let mut vacated = 0;
        for role in Role::ALL {
            let (here, there) = (position.pieces(color, role), end.pieces(color, role));
            vacated += (here & !there).count();
            for target in there & !here {
                let promoted = promotion.filter(|_| !matches!(role, Role::Pawn | Role::King));
                let nearest = here
                    .into_iter()
                    .filter_map(|from| moves_between(role, color, from, target))
                    .chain(promoted)
                    .min();
                // A castle takes the king along its back rank in one move, its rook in none.
                let castled = (may_castle && target.rank() == back_rank)
                    .then_some(match role {
                        Role::King => Some(1),
                        Role::Rook => Some(0),
                        _ => None,
                    })
                    .flatten();
                match nearest.into_iter().chain(castled).min() {
                    Some(moves) => arrivals += moves,
                    None => return false,
                }
            }
        }
        let captured = pieces(position) - pieces(end);
        // A piece leaves a square it must not stay on by a move or by being captured.
        let side = color as usize;
        // A castle moves two pieces at once.
        let leaving = vacated.saturating_sub(captured + u32::from(may_castle));
        needed[side] = needed[side].max(arrivals.max(leaving));
        let other = 1 - side;
        needed[other] = needed[other].max(captured);
    }
    let mover = position.turn() as usize;
    let mut moves_left = [0; 2];
    moves_left[mover] = plies.div_ceil(2);
    moves_left[1 - mover] = plies / 2;
    needed[0] <= moves_left[0] && needed[1] <= moves_left[1]
}

/// The fewest moves that take a `role` of `color` from `from` to `to` on an empty board
/// (captures allowed); `None` where it never gets there.
fn moves_between(role: Role, color: Color, from: Square, to: Square) -> Option<u32> {
    let files = u32::from(from.file().abs_diff(to.file()));
    let ranks = u32::from(from.rank().abs_diff(to.rank()));
    let line = files == 0 || ranks == 0;
    let diagonal = files == ranks;
    match role {
        Role::Pawn => {
            let (start, ahead) = match color {
                Color::White => (1, i32::from(to.rank()) - i32::from(from.rank())),
                Color::Black => (6, i32::from(from.rank()) - i32::from(to.rank())),
            };
            let ahead = u32::try_from(ahead).ok().filter(|&a| a > 0 && files <= a)?;
            Some(if from.rank() == start && ahead >= 2 {
                ahead - 1
            } else {
                ahead
            })
        }
        Role::Knight => Some(knight_moves(from, to)),
        Role::Bishop => ((files + ranks) % 2 == 0).then_some(if diagonal { 1 } else { 2 }),
        Role::Rook => Some(if line { 1 } else { 2 }),
        Role::Queen => Some(if line || diagonal { 1 } else { 2 }),
        Role::King => Some(files.max(ranks)),
    }
}

/// The fewest moves that take a pawn of `color` on `from` to its last rank.
fn moves_to_promote(color: Color, from: Square) -> u32 {
    let (start, ahead) = match color {
        Color::White => (1, 7 - from.rank()),
        Color::Black => (6, from.rank()),
    };
    u32::from(if from.rank() == start {
        ahead - 1
    } else {
        ahead
    })
}

/// A knight's fewest moves between two squares, by a breadth-first search made once.
fn knight_moves(from: Square, to: Square) -> u32 {
    static TABLE: OnceLock<Vec<[u8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(Square::new)
            .map(|start| {
                let mut moves = [u8::MAX; 64];
                moves[start.index()] = 0;
                let mut frontier = vec![start];
                let mut step = 0;
                while !frontier.is_empty() {
                    step += 1;
                    let mut next = Vec::new();
                    for square in frontier {
                        for target in attacks::knight(square) {
                            if moves[target.index()] == u8::MAX {
                                moves[target.index()] = step;
                                next.push(target);
                            }
                        }
                    }
                    frontier = next;
                }
                moves
            })
            .collect()
    });
    u32::from(table[from.index()][to.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{attacks, specialized};

    fn played(root: &Position, uci: &[&str]) -> Position {
        uci.iter().fold(*root, |position, text| {
            let m = *legal_moves(&position)
                .iter()
                .find(|m| m.to_string() == *text)
                .expect("a legal move");
            position.play(m)
        })
    }

    #[test]
    fn paths_to_a_position_count_its_transpositions() {
        attacks::init();
        specialized::init();
        let root = Position::startpos();
        // Two knight moves of each side commute: 2 x 2 orders.
        let knights = played(&root, &["g1f3", "g8f6", "b1c3", "b8c6"]);
        assert_eq!(paths_to(&root, &knights, 4), 4);
        // e4 before Bc4 only: the bishop is shut in before.
        let bishop = played(&root, &["e2e4", "e7e5", "f1c4", "d7d6"]);
        assert_eq!(paths_to(&root, &bishop, 4), 2);
        // Back where they started after two moves each: every knight's or rook's way out and
        // back (Nf3-g1, Nh3-g1, Nc3-b1, Na3-b1 for White, the same for Black).
        assert_eq!(paths_to(&root, &root, 4), 16);
        // Moves that cannot be undone in time: none.
        let e4 = played(&root, &["e2e4"]);
        assert_eq!(paths_to(&e4, &root, 4), 0);
    }

    /// The estimate is within 5% of the distinct positions of the start position (A083276:
    /// 72,078 and 5,362 after 4 and 3 plies), and the same on every run.
    #[test]
    fn expected_stores_are_near_the_distinct_positions() {
        attacks::init();
        specialized::init();
        let never = AtomicBool::new(false);
        let root = Position::startpos();
        let estimate = expected_stores(&root, 6, &never).expect("an estimate");
        let distinct = 72_078.0 + 5_362.0;
        assert!((estimate / distinct - 1.0).abs() < 0.05, "{estimate}");
        assert_eq!(expected_stores(&root, 6, &never), Some(estimate));
        assert_eq!(expected_stores(&root, 4, &never), None);
        assert_eq!(expected_stores(&root, 6, &AtomicBool::new(true)), None);
    }
}
