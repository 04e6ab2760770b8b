//! Position keys: incremental 128-bit Zobrist hashing and the exact NybbleBoard key.

use crate::common;

use std::collections::{HashMap, HashSet};
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::zobrist::{DEFAULT_SEED, MAX_DEPTH_KEYS};
use vkperft::chess::{Hash128, Move, MoveKind, NybbleBoard, Position, Zobrist};

const SEED: u64 = 0x6b65_7973;

/// Random walks of up to `plies_per_walk` plies from every start position in turn, with varied
/// bias toward sharp moves, until `total_plies` plies were visited.
fn walk_plies(
    seed: u64,
    total_plies: usize,
    plies_per_walk: usize,
    mut visit: impl FnMut(&Position, Move, &Position),
) {
    let starts = common::start_positions();
    let mut rng = SplitMix64::new(seed);
    let mut done = 0;
    for walk_index in 0.. {
        if done >= total_plies {
            break;
        }
        let start = starts[walk_index % starts.len()];
        let sharp_percent = [0, 50, 90][walk_index % 3];
        common::walk(
            &mut rng,
            &start,
            plies_per_walk,
            sharp_percent,
            |p, m, c| {
                done += 1;
                visit(p, m, c);
            },
        );
    }
}

/// Every position visited by walks totalling `total_plies` plies.
fn visited_positions(seed: u64, total_plies: usize) -> Vec<Position> {
    let mut positions = Vec::with_capacity(total_plies);
    walk_plies(seed, total_plies, 80, |_, _, child| positions.push(*child));
    positions
}

/// The perft state as text: a FEN's first four fields (the ep square is canonical).
fn state(pos: &Position) -> String {
    let fen = pos.to_fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The delta computed before the move is made is the delta from the child, for every move but a
/// double push, which gets none.
fn assert_delta_before_play(zobrist: &Zobrist, parent: &Position, m: Move, delta: Hash128) {
    match zobrist.move_delta_before_play(parent, m) {
        Some(before) => assert_eq!(before, delta, "{} {m}", parent.to_fen()),
        None => assert_eq!(m.kind(), MoveKind::DoublePush, "{} {m}", parent.to_fen()),
    }
}

#[test]
fn zobrist_incremental_equals_full_hash() {
    for seed in [DEFAULT_SEED, SEED] {
        let zobrist = Zobrist::new(seed);
        let mut plies = 0;
        // Each child's key is checked against a full recomputation, so along a walk the
        // incrementally updated key never drifts.
        walk_plies(seed, 100_000, 120, |parent, m, child| {
            let parent_hash = zobrist.hash(parent);
            let child_hash = zobrist.hash(child);
            let delta = zobrist.move_delta(parent, m, child);
            assert_eq!(parent_hash ^ delta, child_hash, "{} {m}", parent.to_fen());
            assert_delta_before_play(&zobrist, parent, m, delta);
            // The same delta undoes the move.
            assert_eq!(child_hash ^ delta, parent_hash, "{} {m}", parent.to_fen());
            plies += 1;
        });
        assert!(plies >= 100_000, "{plies} plies");
    }
}

#[test]
fn zobrist_seeds_give_independent_keys() {
    let positions = visited_positions(SEED, 5_000);
    let (a, b) = (Zobrist::new(1), Zobrist::new(2));
    assert_eq!(Zobrist::default().seed(), DEFAULT_SEED);
    for pos in &positions {
        let (ha, hb) = (a.hash(pos), b.hash(pos));
        assert!(ha.hi != hb.hi && ha.lo != hb.lo, "{}", pos.to_fen());
        // A seed always gives the same keys.
        assert_eq!(Zobrist::new(1).hash(pos), ha);
    }
    let depth_keys: HashSet<Hash128> = (0..MAX_DEPTH_KEYS as u32).map(|d| a.depth_key(d)).collect();
    assert_eq!(depth_keys.len(), MAX_DEPTH_KEYS, "depth keys must differ");
    assert!(!depth_keys.contains(&Hash128::default()));
}

#[test]
fn nybble_round_trip() {
    let positions = visited_positions(SEED ^ 1, 25_000);
    assert!(positions.len() >= 20_000);
    for pos in &positions {
        let key = NybbleBoard::from_position(pos);
        let back = key
            .to_position()
            .unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
        assert!(
            back.same_perft_state(pos),
            "{} -> {}",
            pos.to_fen(),
            back.to_fen()
        );
        assert_eq!(NybbleBoard::from_position(&back), key);
        assert_eq!(key.to_bytes().len(), 32);
    }
}

/// A sampled position with its perft state as text and both keys.
struct Keyed<'a> {
    pos: &'a Position,
    state: String,
    nybble: NybbleBoard,
    hash: Hash128,
}

/// Both keys and `same_perft_state` agree with the states' text on whether `a` and `b` are one
/// perft state.
fn assert_keys_match_states(a: &Keyed, b: &Keyed) {
    let same = a.state == b.state;
    let fens = format!("{} / {}", a.pos.to_fen(), b.pos.to_fen());
    assert_eq!(
        a.pos.same_perft_state(b.pos),
        same,
        "same_perft_state: {fens}"
    );
    assert_eq!(a.nybble == b.nybble, same, "NybbleBoard: {fens}");
    assert_eq!(a.hash == b.hash, same, "Zobrist: {fens}");
}

/// Legal positions that differ from `pos` in one part of the perft state only: the other side
/// to move (without an ep square, which would be the other side's), one castling right less, no
/// ep square.
fn near_misses(pos: &Position) -> Vec<Position> {
    let setup = pos.to_setup();
    let mut variants = Vec::new();
    let mut other_side = setup.clone();
    other_side.turn = !setup.turn;
    other_side.ep_square = None;
    variants.push(other_side);
    for rook in setup.castling_rooks {
        let mut fewer = setup.clone();
        fewer.castling_rooks = setup.castling_rooks.without(rook);
        variants.push(fewer);
    }
    if setup.ep_square.is_some() {
        let mut without_ep = setup.clone();
        without_ep.ep_square = None;
        variants.push(without_ep);
    }
    variants
        .iter()
        .filter_map(|variant| Position::from_setup(variant).ok())
        .collect()
}

/// Keys are equal exactly when perft states are, and `same_perft_state` says which, over the
/// positions of long walks (which revisit many positions by transposition) and their near misses:
/// every pair of positions with one state, each position against its near misses and against a
/// random other one, and neighbours in the order of each key, where two states sharing a key
/// would meet.
#[test]
fn keys_equal_iff_positions_equal() {
    let walked = visited_positions(SEED ^ 2, 60_000);
    let near: Vec<Vec<Position>> = walked.iter().map(near_misses).collect();
    let zobrist = Zobrist::default();
    let keyed = |pos| Keyed {
        pos,
        state: state(pos),
        nybble: NybbleBoard::from_position(pos),
        hash: zobrist.hash(pos),
    };
    let sample: Vec<Keyed> = walked
        .iter()
        .chain(near.iter().flatten())
        .map(keyed)
        .collect();

    let mut near_miss_pairs = 0;
    for (pos, misses) in walked.iter().zip(&near) {
        let original = keyed(pos);
        for miss in misses {
            let miss = keyed(miss);
            assert_ne!(original.state, miss.state);
            assert_keys_match_states(&original, &miss);
            near_miss_pairs += 1;
        }
    }
    assert!(
        near_miss_pairs >= 50_000,
        "{near_miss_pairs} near-miss pairs"
    );

    let mut by_state: HashMap<&str, Vec<&Keyed>> = HashMap::new();
    for keyed in &sample {
        by_state.entry(&keyed.state).or_default().push(keyed);
    }
    let mut transpositions = 0;
    let mut transpositions_with_other_counters = 0;
    for group in by_state.values() {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                assert_keys_match_states(a, b);
                transpositions += 1;
                if a.pos.to_setup() != b.pos.to_setup() {
                    transpositions_with_other_counters += 1;
                }
            }
        }
    }
    assert!(by_state.len() >= 80_000, "{} distinct", by_state.len());
    assert!(
        transpositions >= 50_000,
        "{transpositions} transposition pairs"
    );
    assert!(
        transpositions_with_other_counters >= 30_000,
        "{transpositions_with_other_counters} transposition pairs with other move counters"
    );

    let mut rng = SplitMix64::new(SEED ^ 3);
    let mut distinct_pairs = 0;
    for a in &sample {
        let b = &sample[rng.below(sample.len() as u64) as usize];
        assert_keys_match_states(a, b);
        distinct_pairs += usize::from(a.state != b.state);
    }
    assert!(
        distinct_pairs >= 110_000,
        "{distinct_pairs} pairs of distinct states"
    );

    let mut by_nybble: Vec<&Keyed> = sample.iter().collect();
    by_nybble.sort_by(|a, b| (a.nybble.planes, &a.state).cmp(&(b.nybble.planes, &b.state)));
    let mut by_hash: Vec<&Keyed> = sample.iter().collect();
    by_hash.sort_by(|a, b| (a.hash.hi, a.hash.lo, &a.state).cmp(&(b.hash.hi, b.hash.lo, &b.state)));
    for order in [by_nybble, by_hash] {
        for pair in order.windows(2) {
            assert_keys_match_states(pair[0], pair[1]);
        }
    }
}

/// Positions that differ in one detail only must get different keys; FENs that describe the
/// same perft state must get equal keys.
#[test]
fn keys_of_constructed_pairs() {
    let zobrist = Zobrist::default();
    let assert_pair = |a: &str, b: &str, equal: bool| {
        let (pa, pb) = (position(a), position(b));
        assert_eq!(pa.same_perft_state(&pb), equal, "{a} / {b}");
        let (na, nb) = (
            NybbleBoard::from_position(&pa),
            NybbleBoard::from_position(&pb),
        );
        assert_eq!(na == nb, equal, "NybbleBoard of {a} / {b}");
        assert_eq!(
            zobrist.hash(&pa) == zobrist.hash(&pb),
            equal,
            "Zobrist of {a} / {b}"
        );
    };
    // Side to move.
    assert_pair(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
        false,
    );
    assert_pair(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        false,
    );
    // One castling right less, each in turn.
    let full = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for fewer in ["Qkq", "Kkq", "KQq", "KQk"] {
        assert_pair(
            full,
            &format!("r3k2r/8/8/8/8/8/8/R3K2R w {fewer} - 0 1"),
            false,
        );
    }
    // A legal ep square is part of the state; a useless one is dropped.
    assert_pair(
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1",
        false,
    );
    assert_pair(
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
        "8/8/8/KPp4r/8/8/8/7k w - - 0 1",
        true,
    );
    // Move counters are not.
    assert_pair(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 17 42",
        true,
    );
}
