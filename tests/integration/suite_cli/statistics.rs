//! `suite --stats`: the move-type statistics an EPD line carries per depth, compared with
//! vkperft's, on the CPU and on Vulkan; a wrong or unknown column, engines without statistics,
//! and generated statistics suites.

use super::{count, junit_cases, results, scratch, suite, write, KIWIPETE, TRICKY_EPD};
use crate::common::run_vkperft;
use crate::hunt_cli::buggy_engine;
use serde_json::Value;
use std::path::Path;

/// The shipped statistics suite: the Grand Chess Tree's columns of the start position and
/// Kiwipete beside their counts.
fn stats_suite() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/perft-stats-suite.epd")
        .display()
        .to_string()
}

/// Each check of a run in which every statistic of every check agreed: how many there were.
fn stats_all_agree(json: &Value) -> usize {
    results(json)
        .iter()
        .flat_map(|result| result["stats"].as_array().expect("a list of statistics"))
        .map(|check| {
            assert_eq!(check["agrees"], true, "{check}");
            assert_eq!(check["expected"], check["got"], "{check}");
        })
        .count()
}

/// `suite --stats` compares every published column of the shipped statistics suite on the CPU
/// (the start position to depth 4, Kiwipete to depth 3: 14 columns each), with no table and
/// with a fast table.
#[test]
fn a_statistics_suite_passes_on_the_cpu() {
    for table in [&["--tt", "off"][..], &["--tt", "fast", "--tt-mb", "16"]] {
        let mut args = vec![stats_suite()];
        args.extend(
            ["--stats", "--max-nodes", "200000", "--backend", "cpu"]
                .iter()
                .chain(table)
                .chain(&["--threads", "2"])
                .map(|arg| arg.to_string()),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (run, json) = suite(&args);
        assert_eq!(run.code, 0, "{table:?}: {}", run.stderr);
        assert_eq!(count(&json, "passed"), 4 + 3, "{json}");
        assert_eq!(count(&json, "stats_compared"), 7 * 14, "{json}");
        assert_eq!(stats_all_agree(&json), 7 * 14);
        let kiwipete_d2 = &results(&json)[5];
        assert_eq!(kiwipete_d2["id"], "kiwipete");
        assert_eq!(kiwipete_d2["stats"][2]["key"], "castles");
        assert_eq!(kiwipete_d2["stats"][2]["got"], "91");
    }
}

/// On a Vulkan device (lavapipe in CI) the statistics search agrees too, to depth 3.
#[test]
fn a_statistics_suite_passes_on_vulkan() {
    let suite_file = stats_suite();
    let (run, json) = suite(&[
        &suite_file,
        "--stats",
        "--max-nodes",
        "100000",
        "--backend",
        "vulkan",
        "--tt",
        "fast",
        "--tt-mb",
        "16",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed"), 3 + 3, "{json}");
    assert!(results(&json)
        .iter()
        .all(|r| r["depth"].as_u64().is_some_and(|d| d <= 3)));
    assert_eq!(stats_all_agree(&json), 6 * 14);
}

/// One wrong column fails its check (exit 5) and is named with its depth, the file's value
/// and vkperft's, in the report, the JSON and the JUnit; the right columns beside it are said
/// to agree. Without `--stats` the same line passes on its count, the statistics left out.
#[test]
fn a_wrong_statistic_fails_naming_its_column() {
    let dir = scratch("wrong-stat");
    let epd = write(
        &dir,
        "wrong.epd",
        &format!(
            "{KIWIPETE} ;D1 48 ;D1.captures 8 ;D2 2039 ;D2.captures 351 ;D2.castles 90 \
             ;D2.checks 3\n"
        ),
    );
    let junit = dir.join("out.xml").display().to_string();
    let (run, json) = suite(&[&epd, "--stats", "--threads", "2", "--junit", &junit]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_eq!((count(&json, "passed"), count(&json, "failed")), (1, 1));
    let wrong = &results(&json)[1];
    assert_eq!(wrong["status"], "failed");
    assert_eq!(wrong["got"], "2039", "the count agrees");
    assert_eq!(wrong["finding"], Value::Null, "a statistic is not walked");
    let agrees: Vec<(&str, bool)> = wrong["stats"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| (c["key"].as_str().expect("a key"), c["agrees"] == true))
        .collect();
    assert_eq!(
        agrees,
        [("captures", true), ("castles", false), ("checks", true)]
    );
    assert_eq!(wrong["stats"][1]["expected"], "90");
    assert_eq!(wrong["stats"][1]["got"], "91");
    let xml = std::fs::read_to_string(&junit).expect("written");
    let kinds: Vec<String> = junit_cases(&xml).into_iter().map(|case| case.1).collect();
    assert_eq!(kinds, ["passed", "failure"]);
    assert!(xml.contains("type=\"wrong statistics\""), "{xml}");
    assert!(xml.contains("D2.castles expected 90, got 91"), "{xml}");
    let run = run_vkperft(&["suite", &epd, "--stats", "--threads", "2"], &[]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    for said in [
        "FAIL ",
        "depth 2",
        "2,039 nodes agree; D2.castles expected 90, got 91",
        "D2.captures: 351 agrees",
        "D2.checks: 3 agrees",
        "1 of 2 checks failed",
    ] {
        assert!(
            run.stdout.contains(said) || run.stderr.contains(said),
            "{said}: {}{}",
            run.stdout,
            run.stderr
        );
    }
    let run = run_vkperft(&["suite", &epd, "--threads", "2"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("4 statistics not compared (--stats compares them)"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// A key that names no column is bad input (exit 2) naming the file, the line and the key, so
/// a misspelt column is never passed over; `--stats` with an engine other than vkperft is
/// refused, as only vkperft counts statistics.
#[test]
fn an_unknown_statistic_or_an_engine_without_statistics_is_refused() {
    let dir = scratch("unknown-stat");
    let epd = write(
        &dir,
        "typo.epd",
        &format!("{KIWIPETE} ;D1 48\n{KIWIPETE} ;D1 48 ;D1.capture 8\n"),
    );
    let run = run_vkperft(&["suite", &epd, "--stats"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("{epd}:2: \"capture\" is no statistics column")),
        "{}",
        run.stderr
    );
    let suite_file = stats_suite();
    let command = buggy_engine();
    let run = run_vkperft(&["suite", &suite_file, "--stats", "--uci", &command], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("only vkperft counts statistics"),
        "{}",
        run.stderr
    );
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// Lines without statistics run with `--stats` as without it; a suite generated with
/// `--stats` carries every column at every depth and passes.
#[test]
fn stats_runs_plain_lines_and_generated_statistics() {
    let dir = scratch("plain-stats");
    let epd = write(&dir, "tricky.epd", TRICKY_EPD);
    let (run, json) = suite(&[&epd, "--stats", "--max-nodes", "10000", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed"), 15, "{json}");
    assert_eq!(count(&json, "stats_compared"), 0);
    let generated = dir.join("generated.epd").display().to_string();
    let run = run_vkperft(
        &[
            "suite",
            "--generate",
            "5",
            "--depth",
            "2",
            "--seed",
            "4",
            "--stats",
            "--out",
            &generated,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("counts and statistics"),
        "{}",
        run.stdout
    );
    let (run, json) = suite(&[&generated, "--stats", "--threads", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed"), 10, "{json}");
    assert_eq!(count(&json, "stats_compared"), 10 * 15);
    std::fs::remove_dir_all(&dir).expect("removed");
}
