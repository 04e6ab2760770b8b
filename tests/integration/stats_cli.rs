//! `perft --stats` from the command line: the JSON keys, the text, the published figures of
//! both sources (the Grand Chess Tree's and the Chess Programming Wiki's), and the Vulkan
//! backend's figures against the CPU's.

use crate::common::run_vkperft;
use serde_json::Value;
use vkperft::chess::{Convention, MoveStat};
use vkperft::reference::move_stats::{published_stats, published_stats_for, PublishedStats};

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

/// Every column `row` publishes equals the run's `json`; returns how many were compared.
fn assert_published(json: &Value, row: &PublishedStats, what: &str) -> usize {
    assert_eq!(
        json["nodes"].as_str(),
        Some(row.nodes.to_string().as_str()),
        "{what}"
    );
    for &(column, published) in &row.stats {
        let ours = stat(&json["stats"], column.key());
        assert_eq!(
            ours,
            published,
            "{} at depth {} {what}",
            column.key(),
            row.depth
        );
    }
    row.stats.len()
}

#[test]
fn the_start_position_matches_both_sources_to_depth_6_in_every_mode() {
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
        for source in Convention::ALL {
            let published = published_stats_for(source, START, depth).expect("published");
            assert_published(&json, published, mode);
        }
        assert_eq!(stat(&json["stats"], "stalemates"), 0, "none in this tree");
        assert_eq!(json["fast_stats"].is_object(), mode == "certify");
    }
}

#[test]
fn kiwipete_matches_both_sources_at_depth_4_in_every_mode() {
    for mode in ["off", "fast", "verified", "certify"] {
        let json = json_of(&[
            "perft",
            "--fen",
            KIWIPETE,
            "--depth",
            "4",
            "--backend",
            "cpu",
            "--tt",
            mode,
            "--tt-mb",
            "16",
            "--stats",
            "--json",
        ]);
        for source in Convention::ALL {
            let published = published_stats_for(source, KIWIPETE, 4).expect("published");
            assert_published(&json, published, mode);
        }
    }
}

/// The deepest figures the issue names, with a table on every core: the start position to
/// depth 8 and Kiwipete to depth 6, against the Grand Chess Tree's (and, where it publishes
/// them, the wiki's) values. Hours on a small machine:
/// `cargo test --profile testing --test integration deep_published -- --ignored`.
#[test]
#[ignore]
fn deep_published_figures() {
    for (fen, depth) in [(START, 7), (START, 8), (KIWIPETE, 5), (KIWIPETE, 6)] {
        let depth_text = depth.to_string();
        let json = json_of(&[
            "perft",
            "--fen",
            fen,
            "--depth",
            &depth_text,
            "--backend",
            "cpu",
            "--tt",
            "verified",
            "--tt-mb",
            "2048",
            "--stats",
            "--json",
        ]);
        for source in Convention::ALL {
            if let Some(published) = published_stats_for(source, fen, depth) {
                assert_published(&json, published, "verified");
            }
        }
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
    for name in MoveStat::ALL.map(MoveStat::key) {
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
        run.stdout.lines().all(|line| !line.contains("captures")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Nodes searched: 2039"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("direct_checks"), "{}", run.stderr);
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
        ("captures", "1,576"),
        ("direct_checks", "461"),
        ("total_mates", "8"),
        ("checks", "469"),
        ("checkmates", "8"),
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

/// Every published figure up to 20 million leaves, of both sources: the wiki's four positions
/// and the Grand Chess Tree's two, each in its own convention.
#[test]
fn every_published_figure_is_reproduced() {
    let mut compared = 0;
    for (source, row) in Convention::ALL
        .into_iter()
        .flat_map(|source| published_stats(source).iter().map(move |row| (source, row)))
        .filter(|(_, row)| row.nodes <= 20_000_000)
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
        compared += assert_published(&json, row, &format!("{} ({source:?})", row.name));
    }
    assert_eq!(compared, 150 + 11 * 14, "figures compared");
}
