//! Published perft values, computed by the parallel CPU backend, and its divide checked root
//! move by root move against the single-thread reference.

use crate::common;

use vkperft::chess::perft;
use vkperft::chess::{Position, Zobrist};
use vkperft::cpu::parallel::divide;
use vkperft::cpu::search::PlainSearch;
use vkperft::reference::values;

/// Published values up to this many nodes run in the tests (a second or so each in release).
const MAX_NODES: u128 = 200_000_000;
const THREADS: usize = 2;

fn position_of(name: &str) -> Position {
    let value = values()
        .iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("{name} is not in the reference table"));
    Position::from_fen(value.fen).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every published value of `name` with at most [`MAX_NODES`] nodes, by the parallel perft.
fn check_published(name: &str) {
    let pos = position_of(name);
    let zobrist = Zobrist::default();
    let control = common::silent_control();
    let mut checked = 0;
    for value in values()
        .iter()
        .filter(|v| v.name == name && v.nodes <= MAX_NODES)
    {
        let result = divide(&pos, value.depth, THREADS, &PlainSearch, &zobrist, &control)
            .expect("the run is never cancelled");
        let total: u128 = result.iter().map(|(_, counts)| counts.nodes).sum();
        assert_eq!(total, value.nodes, "{name} perft({})", value.depth);
        checked += 1;
    }
    // Guards against a filter or table change silently testing nothing.
    assert!(
        checked >= 4,
        "{name}: only {checked} published values checked"
    );
}

/// The parallel divide equals the reference divide per root move, in the same order.
fn check_divide(name: &str) {
    let pos = position_of(name);
    let zobrist = Zobrist::default();
    let control = common::silent_control();
    for depth in 3..=4 {
        let parallel = divide(&pos, depth, THREADS, &PlainSearch, &zobrist, &control)
            .expect("the run is never cancelled");
        let parallel: Vec<(String, u128)> = parallel
            .iter()
            .map(|(m, counts)| (m.to_string(), counts.nodes))
            .collect();
        let single: Vec<(String, u128)> = perft::divide(&pos, depth)
            .iter()
            .map(|(m, nodes)| (m.to_string(), *nodes))
            .collect();
        assert_eq!(parallel, single, "{name} divide({depth})");
    }
}

#[test]
fn published_startpos() {
    check_published("startpos");
    check_divide("startpos");
}

#[test]
fn published_kiwipete() {
    check_published("kiwipete");
    check_divide("kiwipete");
}

#[test]
fn published_position3() {
    check_published("position3");
    check_divide("position3");
}

#[test]
fn published_position4() {
    check_published("position4");
    check_divide("position4");
}

#[test]
fn published_position5() {
    check_published("position5");
    check_divide("position5");
}

#[test]
fn published_position6() {
    check_published("position6");
    check_divide("position6");
}

#[test]
fn table_has_the_six_positions() {
    let names: Vec<&str> = vkperft::reference::positions()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(
        names,
        [
            "startpos",
            "kiwipete",
            "position3",
            "position4",
            "position5",
            "position6"
        ]
    );
}

#[test]
fn depth_zero_is_one_node_and_no_root_moves() {
    let pos = Position::startpos();
    assert_eq!(perft::perft(&pos, 0), 1);
    assert!(perft::divide(&pos, 0).is_empty());
    let control = common::silent_control();
    let result = divide(
        &pos,
        0,
        THREADS,
        &PlainSearch,
        &Zobrist::default(),
        &control,
    );
    assert!(result.expect("never cancelled").is_empty());
}
