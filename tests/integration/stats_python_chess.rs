//! Move-type statistics against python-chess, an independent implementation
//! (`scripts/move-stats-python-chess`): its table of the six reference positions to depth 4
//! (`assets/move-stats-python-chess.tsv`), and live on random and sharp positions.

use crate::common::{random_positions, run_vkperft, SHARP_FENS};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use vkperft::chess::perft::perft_stats;
use vkperft::chess::{MoveStat, MoveStats, Position};

const TABLE: &str = include_str!("../../assets/move-stats-python-chess.tsv");

fn stats_of(value: &Value) -> MoveStats {
    MoveStats::from_values(MoveStat::TALLIED.map(|stat| match &value[stat.key()] {
        Value::String(text) => text.parse().expect("a count"),
        number => u128::from(number.as_u64().expect("a count")),
    }))
}

/// Rows go through the table modes in turn: each position's four depths in four modes, and
/// each depth in every mode on some position.
#[test]
fn vkperft_matches_the_python_chess_table_of_the_reference_positions() {
    let mut rows = 0;
    for line in TABLE.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, depth, nodes, stats @ ..] = &fields[..] else {
            panic!("malformed line {line}");
        };
        let fen = vkperft::reference::positions()
            .into_iter()
            .find(|(known, _)| known == name)
            .map(|(_, fen)| fen)
            .expect("a reference position");
        let mode = ["off", "fast", "verified", "certify"][(rows / 4 + rows % 4) % 4];
        let run = run_vkperft(
            &[
                "perft",
                "--fen",
                fen,
                "--depth",
                depth,
                "--backend",
                "cpu",
                "--tt",
                mode,
                "--tt-mb",
                "16",
                "--stats",
                "--json",
            ],
            &[],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json: Value = serde_json::from_str(&run.stdout).expect("JSON");
        assert_eq!(json["nodes"].as_str(), Some(*nodes), "{name} {depth}");
        let expected: Vec<u128> = stats.iter().map(|s| s.parse().expect("a count")).collect();
        assert_eq!(
            stats_of(&json["stats"]).values().to_vec(),
            expected,
            "{name} depth {depth}"
        );
        rows += 1;
    }
    assert_eq!(rows, 24, "six positions, depths 1 to 4");
}

/// The live comparison: python-chess (scripts/setup installs it; scripts/env.sh names its
/// interpreter in VKPERFT_PYTHON) counts each position in one batch.
#[test]
fn the_reference_classification_matches_python_chess_on_random_and_sharp_positions() {
    let python = std::env::var("VKPERFT_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/move-stats-python-chess"
    );
    let mut positions: Vec<(Position, u32)> = random_positions(32, 60, 60)
        .into_iter()
        .map(|pos| (pos, 2))
        .collect();
    for fen in SHARP_FENS {
        positions.push((Position::from_fen(fen).expect("a sharp FEN"), 3));
    }
    let mut child = Command::new(&python)
        .args([script, "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python} (python-chess; run scripts/setup): {e}"));
    let mut input = String::new();
    for (pos, depth) in &positions {
        input += &format!("{}\t{depth}\n", pos.to_fen());
    }
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the batch written");
    let output = child.wait_with_output().expect("python-chess ran");
    assert!(
        output.status.success(),
        "{python} with python-chess failed (run scripts/setup)"
    );
    let lines: Vec<&str> = std::str::from_utf8(&output.stdout)
        .expect("UTF-8")
        .lines()
        .collect();
    assert_eq!(lines.len(), positions.len());
    let mut totals = MoveStats::default();
    for ((pos, depth), line) in positions.iter().zip(lines) {
        let theirs: Value = serde_json::from_str(line).expect("a JSON line");
        let (nodes, ours) = perft_stats(pos, *depth);
        assert_eq!(theirs["nodes"].as_u64().map(u128::from), Some(nodes));
        assert_eq!(ours, stats_of(&theirs["stats"]), "{}", pos.to_fen());
        totals += ours;
    }
    // Every kind of check but two discovered checkers occurs, and direct mates.
    for (stat, at_least) in [
        (MoveStat::DirectChecks, 1000),
        (MoveStat::SingleDiscoveredChecks, 10),
        (MoveStat::DirectDiscoveredChecks, 1),
        (MoveStat::DirectMates, 10),
    ] {
        assert!(totals.get(stat) >= at_least, "{stat:?}: {totals:?}");
    }
}
