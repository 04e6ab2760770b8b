//! `perft --stats` from the command line: the JSON keys, the text, the published start
//! position figures, and the Vulkan backend's figures against the CPU's.

use crate::common::run_vkperft;
use serde_json::Value;
use vkperft::chess::STAT_NAMES;
use vkperft::reference::move_stats::published_stats_for;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn json_of(args: &[&str]) -> Value {
    let run = run_vkperft(args, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("one JSON object")
}

fn stat(value: &Value, name: &str) -> u128 {
    value[name]
        .as_str()
        .unwrap_or_else(|| panic!("{name} as a decimal string in {value}"))
        .parse()
        .expect("a count")
}

#[test]
fn the_start_position_matches_the_wiki_to_depth_6_in_every_mode() {
    for (depth, mode) in [(5, "off"), (5, "verified"), (5, "certify"), (6, "fast")] {
        let depth_text = depth.to_string();
        let json = json_of(&[
            "perft",
            "--depth",
            &depth_text,
            "--backend",
            "cpu",
            "--tt",
            mode,
            "--tt-mb",
            "64",
            "--stats",
            "--json",
        ]);
        let published = published_stats_for(START, depth).expect("published");
        assert_eq!(
            json["nodes"].as_str(),
            Some(published.nodes.to_string().as_str())
        );
        for (i, name) in STAT_NAMES.iter().enumerate() {
            let ours = stat(&json["stats"], name);
            match published.stats[i] {
                Some(value) => assert_eq!(ours, value, "{name} at depth {depth} ({mode})"),
                None => assert_eq!(ours, 0, "no stalemates in the start position's tree"),
            }
        }
        assert_eq!(json["fast_stats"].is_object(), mode == "certify");
    }
}

#[test]
fn divide_with_stats_gives_each_move_its_statistics_and_they_sum_to_the_total() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let json = json_of(&[
        "perft",
        "--fen",
        kiwipete,
        "--depth",
        "3",
        "--backend",
        "cpu",
        "--stats",
        "--divide",
        "--json",
    ]);
    let divide = json["divide"].as_array().expect("a divide");
    assert_eq!(divide.len(), 48);
    for name in STAT_NAMES {
        let sum: u128 = divide.iter().map(|line| stat(&line["stats"], name)).sum();
        assert_eq!(sum, stat(&json["stats"], name), "{name}");
    }
    assert_eq!(stat(&json["stats"], "checkmates"), 1);
    assert_eq!(stat(&json["stats"], "castles"), 3162);

    let run = run_vkperft(
        &[
            "perft",
            "--fen",
            kiwipete,
            "--depth",
            "2",
            "--backend",
            "cpu",
            "--stats",
            "--divide",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // stdout stays Stockfish's format; the statistics go to stderr.
    assert!(
        run.stdout.lines().all(|line| !line.contains("Captures")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Nodes searched: 2039"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("Captures"), "{}", run.stderr);
    assert!(run.stderr.contains("e1g1"), "{}", run.stderr);
}

#[test]
fn the_text_names_every_statistic() {
    let run = run_vkperft(
        &["perft", "--depth", "4", "--backend", "cpu", "--stats"],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Nodes searched: 197281"),
        "{}",
        run.stdout
    );
    for (heading, value) in [
        ("Captures", "1,576"),
        ("Checks", "469"),
        ("Checkmates", "8"),
    ] {
        let line = run
            .stdout
            .lines()
            .find(|line| line.trim_start().starts_with(heading) && line.contains(value));
        assert!(line.is_some(), "{heading} {value} in\n{}", run.stdout);
    }
}

#[test]
fn vulkan_counts_the_statistics_the_cpu_counts() {
    for mode in ["off", "fast", "certify"] {
        let args = |backend| {
            vec![
                "perft",
                "--depth",
                "4",
                "--backend",
                backend,
                "--tt",
                mode,
                "--stats",
                "--json",
                "--divide",
                "--fen",
                KIWIPETE,
            ]
        };
        let gpu = json_of(&args("vulkan"));
        let cpu = json_of(&args("cpu"));
        assert_eq!(gpu["backend"].as_str(), Some("vulkan"));
        assert_eq!(gpu["stats"], cpu["stats"], "{mode}");
        assert_eq!(gpu["divide"], cpu["divide"], "{mode}");
        assert_eq!(stat(&gpu["stats"], "castles"), 128_013, "{mode}");
    }
    // Shallow runs go to the CPU under auto, with their statistics.
    let json = json_of(&["perft", "--depth", "3", "--stats", "--json"]);
    assert_eq!(json["backend"].as_str(), Some("cpu"));
    assert_eq!(stat(&json["stats"], "checks"), 12);
}

#[test]
fn without_stats_no_statistics_are_reported() {
    let json = json_of(&[
        "perft",
        "--depth",
        "3",
        "--backend",
        "cpu",
        "--json",
        "--divide",
    ]);
    assert!(json.get("stats").is_none());
    assert!(json["divide"][0].get("stats").is_none());
}

/// Every published figure up to 20 million leaves, on the four positions the wiki tabulates:
/// equal, or a known dispute whose vkperft value is the one counted.
#[test]
fn the_published_tables_agree_but_for_the_documented_disputes() {
    use vkperft::reference::move_stats::{dispute_for, published_stats};
    let mut compared = 0;
    for row in published_stats()
        .iter()
        .filter(|row| row.nodes <= 20_000_000)
    {
        let depth = row.depth.to_string();
        let json = json_of(&[
            "perft",
            "--fen",
            row.fen,
            "--depth",
            &depth,
            "--backend",
            "cpu",
            "--stats",
            "--json",
        ]);
        assert_eq!(json["nodes"].as_str(), Some(row.nodes.to_string().as_str()));
        for (i, name) in STAT_NAMES.iter().enumerate() {
            let Some(published) = row.stats[i] else {
                continue;
            };
            let ours = stat(&json["stats"], name);
            match dispute_for(row.fen, row.depth, i) {
                Some(dispute) => assert_eq!(ours, dispute.vkperft, "{} {depth} {name}", row.name),
                None => assert_eq!(ours, published, "{} depth {depth} {name}", row.name),
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 150, "figures compared");
}

#[test]
fn a_suite_refuses_statistics() {
    let run = run_vkperft(
        &["suite", "--generate", "2", "--depth", "2", "--stats"],
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("a suite compares leaf counts only"),
        "{}",
        run.stderr
    );
}
