//! A suite from seeded random games: `count` distinct positions with vkperft's exact counts to
//! a depth, written as EPD. Positions are taken in turn for each feature the published suites
//! make sure to cover (a legal castle, a legal en passant capture, a legal promotion, a side in
//! check) and then any position; the games prefer such moves and captures, so that the
//! features come up within a game. The same seed gives the same suite. Asked for statistics,
//! each depth also gets the Grand Chess Tree's columns (and stalemates) as `;D3.captures 34`
//! operations, counted by the CPU's reference statistics perft.

use crate::chess::fen::position_key;
use crate::chess::movegen::legal_moves;
use crate::chess::rng::SplitMix64;
use crate::chess::specialized;
use crate::chess::{CastlingNotation, Convention, Move, MoveKind, MoveStats, Position};
use crate::cpu::exact_divide;
use crate::reference::chess960;
use std::collections::HashSet;
use std::fmt::Write;
use std::ops::ControlFlow;

/// The longest game played for one position.
const MAX_PLIES: u64 = 120;
/// Games tried for a feature before any position is taken instead.
const GAMES_PER_FEATURE: usize = 50;
/// Mixes the user's seed so that seed 0 is no special stream.
const SEED_SALT: u64 = 0x7375_6974_6567_656e;

/// What a generated suite is to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateSettings {
    pub count: usize,
    pub depth: u32,
    pub seed: u64,
    /// Games from the 960 start positions, written in Shredder-FEN.
    pub chess960: bool,
    /// Each depth's move-type statistics too (`--stats`).
    pub stats: bool,
}

/// A position of a generated suite with its counts at depths 1 to the suite's depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedPosition {
    pub fen: String,
    pub counts: Vec<u128>,
    /// The statistics at depths 1 to the suite's depth; empty unless asked for.
    pub stats: Vec<MoveStats>,
}

/// The features taken in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feature {
    Castle,
    EnPassant,
    Promotion,
    Check,
    Any,
}

const FEATURES: [Feature; 5] = [
    Feature::Castle,
    Feature::EnPassant,
    Feature::Promotion,
    Feature::Check,
    Feature::Any,
];

impl Feature {
    fn holds(self, position: &Position, moves: &[Move]) -> bool {
        match self {
            Feature::Castle => moves.iter().any(|m| m.kind() == MoveKind::Castle),
            Feature::EnPassant => moves.iter().any(|m| m.kind() == MoveKind::EnPassant),
            Feature::Promotion => moves.iter().any(|m| m.kind().promotion().is_some()),
            Feature::Check => position.is_in_check(position.turn()),
            Feature::Any => true,
        }
    }
}

/// The positions of a suite, each counted on `threads` threads; `on_position` sees how many
/// are done and may stop the generation (`None` then).
pub fn generate(
    settings: &GenerateSettings,
    threads: usize,
    on_position: &mut dyn FnMut(usize) -> ControlFlow<()>,
) -> Option<Vec<GeneratedPosition>> {
    let mut rng = SplitMix64::new(settings.seed ^ SEED_SALT);
    let mut seen = HashSet::new();
    let mut positions = Vec::with_capacity(settings.count);
    while positions.len() < settings.count {
        let wanted = FEATURES[positions.len() % FEATURES.len()];
        let found = (0..GAMES_PER_FEATURE)
            .find_map(|_| play_for(&mut rng, settings.chess960, wanted, &seen))
            .or_else(|| {
                // Rare features give way after a while; some position always comes.
                std::iter::repeat_with(|| {
                    play_for(&mut rng, settings.chess960, Feature::Any, &seen)
                })
                .flatten()
                .next()
            })
            .expect("a repeated search always ends with a position");
        seen.insert(position_key(&found.to_fen()));
        let counts = (1..=settings.depth)
            .map(|depth| {
                exact_divide(&found, depth, threads)
                    .iter()
                    .map(|(_, nodes)| nodes)
                    .sum()
            })
            .collect();
        // One thread: the reference counter, quick at the depths a suite checks.
        let stats = if settings.stats {
            (1..=settings.depth)
                .map(|depth| specialized::perft_stats(&found, depth).1)
                .collect()
        } else {
            Vec::new()
        };
        positions.push(GeneratedPosition {
            fen: found.to_fen(),
            counts,
            stats,
        });
        if on_position(positions.len()).is_break() {
            return None;
        }
    }
    Some(positions)
}

/// One game from a start position; the first position along it (after the first ply) with the
/// wanted feature and legal moves that is not in `seen`, taken each time with a chance of one
/// in three so that positions come from every stage of a game; for [`Feature::Any`], also the
/// last position of the game.
fn play_for(
    rng: &mut SplitMix64,
    chess960: bool,
    wanted: Feature,
    seen: &HashSet<String>,
) -> Option<Position> {
    let mut position = start(rng, chess960);
    let plies = 1 + rng.below(MAX_PLIES);
    // Half the games play uniformly, half prefer sharp moves.
    let sharp = rng.below(2) == 1;
    for ply in 0..plies {
        let moves: Vec<Move> = legal_moves(&position).iter().copied().collect();
        if moves.is_empty() {
            return None;
        }
        let fresh = ply > 0 && !seen.contains(&position_key(&position.to_fen()));
        let last = ply + 1 == plies;
        if fresh && wanted.holds(&position, &moves) && (rng.below(3) == 0 || last) {
            return Some(position);
        }
        let mv = if sharp {
            weighted_choice(rng, &position, &moves)
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        position = position.play(mv);
    }
    None
}

fn start(rng: &mut SplitMix64, chess960: bool) -> Position {
    if !chess960 {
        return Position::startpos();
    }
    let starts = chess960::start_positions();
    let start = &starts[rng.below(starts.len() as u64) as usize];
    Position::from_fen(start.shredder_fen)
        .expect("the shipped start positions are valid")
        .with_notation(CastlingNotation::Shredder)
}

/// A move chosen with weights that favour the moves suites cover: promotions, en passant
/// captures and castles most, then captures and checks, then pawn moves.
fn weighted_choice(rng: &mut SplitMix64, position: &Position, moves: &[Move]) -> Move {
    let weight = |m: &Move| -> u64 {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::Castle => 8,
            kind if kind.promotion().is_some() => 8,
            _ if position.piece_at(m.to()).is_some() => 3,
            _ if {
                let child = position.play(*m);
                child.is_in_check(child.turn())
            } =>
            {
                3
            }
            MoveKind::DoublePush => 2,
            _ => 1,
        }
    };
    let weights: Vec<u64> = moves.iter().map(weight).collect();
    let mut pick = rng.below(weights.iter().sum());
    for (m, w) in moves.iter().zip(&weights) {
        if pick < *w {
            return *m;
        }
        pick -= w;
    }
    moves[moves.len() - 1]
}

/// The suite as EPD: `FEN ;D1 n ;D2 n ...`, one position per line, each depth's statistics
/// after its count (`;D1 n ;D1.captures c ...`).
pub fn epd_text(positions: &[GeneratedPosition]) -> String {
    let mut text = String::new();
    for position in positions {
        text.push_str(&position.fen);
        for (index, nodes) in position.counts.iter().enumerate() {
            let depth = index + 1;
            let _ = write!(text, " ;D{depth} {nodes}");
            if let Some(stats) = position.stats.get(index) {
                for &stat in Convention::GrandChessTree.columns() {
                    let _ = write!(text, " ;D{depth}.{} {}", stat.key(), stats.get(stat));
                }
            }
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(seed: u64, chess960: bool) -> GenerateSettings {
        GenerateSettings {
            count: 40,
            depth: 2,
            seed,
            chess960,
            stats: false,
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_suite_and_another_seed_another() {
        let go_on = &mut |_| ControlFlow::Continue(());
        let first = generate(&settings(7, false), 1, go_on).expect("not stopped");
        assert_eq!(
            Some(&first),
            generate(&settings(7, false), 1, go_on).as_ref()
        );
        assert_ne!(
            Some(&first),
            generate(&settings(8, false), 1, go_on).as_ref()
        );
    }

    #[test]
    fn a_generation_stops_when_asked() {
        let mut seen = 0;
        let stopped = generate(&settings(7, false), 1, &mut |done| {
            seen = done;
            ControlFlow::Break(())
        });
        assert_eq!((stopped, seen), (None, 1));
    }

    #[test]
    fn positions_are_distinct_and_cover_each_feature() {
        for chess960 in [false, true] {
            let suite = generate(
                &settings(1, chess960),
                1,
                &mut |_| ControlFlow::Continue(()),
            )
            .expect("not stopped");
            let keys: HashSet<String> = suite.iter().map(|p| position_key(&p.fen)).collect();
            assert_eq!(keys.len(), suite.len());
            for feature in FEATURES {
                let with = suite
                    .iter()
                    .filter(|p| {
                        let position = Position::from_fen(&p.fen).expect("valid");
                        let moves: Vec<Move> = legal_moves(&position).iter().copied().collect();
                        feature.holds(&position, &moves)
                    })
                    .count();
                assert!(
                    with >= suite.len() / 10,
                    "{feature:?} in {with} of {} ({chess960})",
                    suite.len()
                );
            }
            for p in &suite {
                let position = Position::from_fen(&p.fen).expect("valid");
                assert_eq!(p.counts[0], legal_moves(&position).len() as u128);
                assert_eq!(p.counts[1], crate::chess::perft::perft(&position, 2));
            }
        }
    }

    #[test]
    fn statistics_are_written_after_each_count_and_read_back() {
        let settings = GenerateSettings {
            count: 5,
            stats: true,
            ..settings(3, false)
        };
        let suite = generate(&settings, 1, &mut |_| ControlFlow::Continue(())).expect("run");
        let text = epd_text(&suite);
        let read = crate::suite::read::read_suite_text(&text, std::path::Path::new("g.epd"), false)
            .expect("the written suite reads");
        for (position, entry) in suite.iter().zip(&read.entries) {
            let known = entry.count_at(2).expect("depth 2");
            assert_eq!(known.nodes, Some(position.counts[1]));
            let columns = Convention::GrandChessTree.columns();
            assert_eq!(known.stats.len(), columns.len());
            assert!(known
                .stats
                .iter()
                .all(|(stat, value)| position.stats[1].get(stat) == value));
        }
        assert!(text.contains(" ;D1 ") && text.contains(" ;D2.total_checks "));
    }
}
