//! The `vkperft` command line: output formats, exit codes and error reporting.

use crate::common::{run_vkperft, Run};
use serde_json::Value;
use vkperft::chess::fen::START_FEN;
use vkperft::reference;

/// Stockfish 15.1's divide of the start position at depth 3.
const START_DIVIDE_3: [(&str, u64); 20] = [
    ("a2a3", 380),
    ("a2a4", 420),
    ("b1a3", 400),
    ("b1c3", 440),
    ("b2b3", 420),
    ("b2b4", 421),
    ("c2c3", 420),
    ("c2c4", 441),
    ("d2d3", 539),
    ("d2d4", 560),
    ("e2e3", 599),
    ("e2e4", 600),
    ("f2f3", 380),
    ("f2f4", 401),
    ("g1f3", 440),
    ("g1h3", 400),
    ("g2g3", 420),
    ("g2g4", 421),
    ("h2h3", 380),
    ("h2h4", 420),
];

fn vkperft(args: &[&str]) -> Run {
    run_vkperft(args, &[])
}

fn success(args: &[&str]) -> Run {
    let run = vkperft(args);
    assert_eq!(run.code, 0, "{args:?} failed: {}", run.stderr);
    run
}

/// Bad input: exit code 2, a message on stderr and nothing on stdout.
fn bad_input(args: &[&str]) -> String {
    let run = vkperft(args);
    assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "{args:?} printed to stdout");
    assert!(run.stderr.contains("error"), "{args:?}: {}", run.stderr);
    run.stderr
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    keys
}

#[test]
fn perft_prints_nodes_time_and_rate() {
    let run = success(&["perft", "--depth", "3", "--threads", "2"]);
    // Transposition table statistics may follow these three lines.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines.len() >= 3, "{}", run.stdout);
    assert_eq!(lines[0], "Nodes searched: 8902");
    let seconds = lines[1]
        .strip_prefix("Time: ")
        .and_then(|rest| rest.strip_suffix(" s"))
        .unwrap_or_else(|| panic!("time line: {}", lines[1]));
    assert!(seconds.parse::<f64>().is_ok(), "{}", lines[1]);
    let rate = lines[2]
        .strip_prefix("Nodes/second: ")
        .unwrap_or_else(|| panic!("rate line: {}", lines[2]));
    assert!(
        !rate.is_empty() && rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{}",
        lines[2]
    );
}

#[test]
fn divide_prints_stockfish_format() {
    let run = success(&["perft", "--depth", "3", "--divide"]);
    let mut expected: String = START_DIVIDE_3
        .iter()
        .map(|(m, n)| format!("{m}: {n}\n"))
        .collect();
    expected += "\nNodes searched: 8902\n";
    assert_eq!(run.stdout, expected);
}

#[test]
fn json_output() {
    let run = success(&[
        "perft",
        "--depth",
        "3",
        "--json",
        "--backend",
        "cpu",
        "--threads",
        "2",
    ]);
    assert_eq!(
        run.stdout.trim().lines().count(),
        1,
        "one line: {}",
        run.stdout
    );
    let value = json(&run.stdout);
    // Further keys (transposition table settings and statistics) may be present.
    let present = keys(&value);
    for key in [
        "backend",
        "depth",
        "elapsed_s",
        "fen",
        "nodes",
        "nps",
        "threads",
    ] {
        assert!(present.contains(&key), "{key} missing: {}", run.stdout);
    }
    assert!(!present.contains(&"divide"));
    assert_eq!(value["fen"], START_FEN);
    assert_eq!(value["depth"], 3);
    assert_eq!(
        value["nodes"], "8902",
        "nodes is a string: counts exceed 2^64"
    );
    assert!(value["elapsed_s"].is_number());
    assert!(value["nps"].is_number() || value["nps"].is_null());
    assert_eq!(value["backend"], "cpu");
    assert_eq!(value["threads"], 2);

    let run = success(&["perft", "--depth", "3", "--json", "--divide"]);
    let value = json(&run.stdout);
    assert!(keys(&value).contains(&"divide"));
    let divide: Vec<(String, u64)> = value["divide"]
        .as_array()
        .expect("divide is an array")
        .iter()
        .map(|entry| {
            assert_eq!(keys(entry), ["move", "nodes"]);
            let nodes = entry["nodes"].as_str().expect("nodes is a string");
            (
                entry["move"].as_str().expect("move").to_string(),
                nodes.parse().expect("a number"),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = START_DIVIDE_3
        .iter()
        .map(|&(m, n)| (m.to_string(), n))
        .collect();
    assert_eq!(divide, expected);
}

#[test]
fn moves_are_applied_first() {
    let run = success(&["perft", "--moves", "e2e4", "e7e5", "--depth", "2", "--json"]);
    let value = json(&run.stdout);
    assert_eq!(
        value["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(value["nodes"], "835");
    let run = success(&[
        "perft", "--fen", START_FEN, "--moves", "e2e4", "e7e5", "--depth", "3",
    ]);
    assert_eq!(run.stdout.lines().next(), Some("Nodes searched: 24825"));
}

#[test]
fn perftree_format() {
    let run = success(&["perftree", "3", START_FEN, "e2e4 e7e5"]);
    let (moves, total) = run
        .stdout
        .split_once("\n\n")
        .unwrap_or_else(|| panic!("no blank line: {}", run.stdout));
    assert_eq!(total, "24825\n");
    let lines: Vec<&str> = moves.lines().collect();
    assert_eq!(lines.len(), 29);
    assert!(lines.contains(&"d1g4 1120"), "{moves}");
    assert!(lines.contains(&"g1e2 633"), "{moves}");
    let sum: u64 = lines
        .iter()
        .map(|line| {
            let (m, n) = line.split_once(' ').expect("move count");
            assert!(m.len() == 4 || m.len() == 5, "{line}");
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(sum, 24825);
}

#[test]
fn perftree_without_moves() {
    let expected: String = START_DIVIDE_3
        .iter()
        .map(|(m, n)| format!("{m} {n}\n"))
        .collect::<String>()
        + "\n8902\n";
    assert_eq!(success(&["perftree", "3", START_FEN, ""]).stdout, expected);
    assert_eq!(success(&["perftree", "3", START_FEN]).stdout, expected);
}

#[test]
fn bad_input_exits_with_code_2() {
    let message = bad_input(&["perft", "--fen", "not a fen", "--depth", "1"]);
    assert!(message.contains("FEN"), "{message}");
    bad_input(&[
        "perft",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "--depth",
        "1",
    ]);
    let message = bad_input(&[
        "perft",
        "--fen",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert!(message.contains("king"), "{message}");
    let message = bad_input(&[
        "perft",
        "--fen",
        "8/8/8/8/8/8/3kK3/8 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert!(
        message.contains("the kings stand on adjacent squares (e2 and d2)"),
        "{message}"
    );
    let message = bad_input(&["perft", "--moves", "e2e5", "--depth", "1"]);
    assert!(message.contains("e2e5"), "{message}");
    bad_input(&["perft", "--moves", "e2e4", "zz", "--depth", "1"]);
    let message = bad_input(&["perft", "--depth", "31"]);
    assert!(message.contains("31"), "{message}");
    bad_input(&["perft", "--depth", "-1"]);
    bad_input(&["perft", "--depth", "x"]);
    bad_input(&["perft", "--depth", "1", "--bogus"]);
    let message = bad_input(&["perft"]);
    assert!(message.contains("--depth"), "{message}");
    bad_input(&["perft", "--depth", "1", "--threads", "0"]);
    bad_input(&["perftree", "1", "not a fen"]);
    bad_input(&["perftree", "1", START_FEN, "e2e4 e2e4"]);
    bad_input(&["perftree", "31", START_FEN]);
    bad_input(&["frobnicate"]);
    // The window's start settings are checked before a window opens.
    let message = bad_input(&["gui", "--fen", "not a fen"]);
    assert!(message.contains("FEN"), "{message}");
    let message = bad_input(&["gui", "--moves", "e2e5"]);
    assert!(message.contains("e2e5"), "{message}");
    bad_input(&["gui", "--depth", "31"]);
    bad_input(&["gui", "--verifier-bits", "7"]);
    bad_input(&["gui", "--tt", "sometimes"]);
}

/// `VKPERFT_CPU_SLIDERS` picks the slider lookup a bench measures (the header and the JSON say
/// which ran, and the counts stay exact); a value it does not take is refused before any run.
#[test]
fn the_slider_lookup_knob_is_obeyed_and_checked() {
    let args = [
        "bench",
        "--quick",
        "--backend",
        "cpu",
        "--position",
        "kiwipete",
        "--json",
    ];
    let run = run_vkperft(&args, &[("VKPERFT_CPU_SLIDERS", "portable-magic")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value = json(&run.stdout);
    assert_eq!(value["slider_lookup"], "magic bitboards", "{}", run.stdout);
    assert_eq!(
        value["positions"][0]["off"]["nodes"], "97862",
        "{}",
        run.stdout
    );
    let run = run_vkperft(&args, &[("VKPERFT_CPU_SLIDERS", "magic")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value = json(&run.stdout);
    let name = value["slider_lookup"].as_str().unwrap_or_default();
    assert!(name.starts_with("magic bitboards"), "{}", run.stdout);
    refuses_knob_values(
        "VKPERFT_CPU_SLIDERS",
        &["PEXT", "magics", ""],
        "expected pext, magic, portable-magic or auto",
    );
}

/// Each of `values` of the environment variable `variable` makes a run exit 2, naming the
/// variable and `expected`.
fn refuses_knob_values(variable: &str, values: &[&str], expected: &str) {
    for bad in values {
        let run = run_vkperft(&["perft", "--depth", "1"], &[(variable, bad)]);
        assert_eq!(run.code, 2, "{bad:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(variable) && run.stderr.contains(expected),
            "{bad:?}: {}",
            run.stderr
        );
    }
}

/// `VKPERFT_TT_HUGE_PAGES` chooses the table memory's pages; either way the counts are exact,
/// and a value it does not take is refused before any run.
#[test]
fn the_huge_page_knob_is_checked() {
    for pages in ["on", "off", "auto"] {
        let run = run_vkperft(
            &[
                "perft",
                "--depth",
                "4",
                "--backend",
                "cpu",
                "--tt",
                "fast",
                "--tt-mb",
                "64",
            ],
            &[("VKPERFT_TT_HUGE_PAGES", pages)],
        );
        assert_eq!(run.code, 0, "{pages}: {}", run.stderr);
        assert!(run.stdout.contains("197281"), "{pages}: {}", run.stdout);
    }
    refuses_knob_values(
        "VKPERFT_TT_HUGE_PAGES",
        &["yes", "OFF", ""],
        "expected on, off or auto",
    );
}

#[test]
fn bench_quick_json_matches_published_values() {
    let run = success(&["bench", "--quick", "--json", "--threads", "2"]);
    let value = json(&run.stdout);
    let positions = value["positions"].as_array().expect("positions array");
    let names: Vec<&str> = positions
        .iter()
        .map(|p| p["position"].as_str().expect("name"))
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
    let mut total = 0u128;
    for row in positions {
        let name = row["position"].as_str().expect("name");
        let depth = row["depth"].as_u64().expect("depth") as u32;
        let published = reference::values()
            .iter()
            .find(|v| v.name == name && v.depth == depth)
            .unwrap_or_else(|| panic!("{name} depth {depth} is not published"));
        // Every run of the row: without a table, with the default `--tt fast`.
        for run in ["off", "fast"] {
            let nodes: u128 = row[run]["nodes"]
                .as_str()
                .expect("nodes")
                .parse()
                .expect("number");
            assert_eq!(nodes, published.nodes, "{name} depth {depth} {run}");
        }
        total += published.nodes;
    }
    assert_eq!(value["total"]["off"]["nodes"], total.to_string());
    assert_eq!(value["total"]["fast"]["nodes"], total.to_string());
}

/// `--progress-log` writes every progress report as a JSON line; the last one is the whole
/// run's. A log that cannot be created stops the command before any work.
#[test]
fn the_progress_log_has_a_line_per_report_ending_with_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("vkperft-progress-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let log = dir.join("progress.jsonl");
    let log_arg = log.to_str().expect("UTF-8 path");
    for tt in ["off", "fast"] {
        success(&[
            "perft",
            "--depth",
            "4",
            "--backend",
            "cpu",
            "--tt",
            tt,
            "--json",
            "--progress-log",
            log_arg,
        ]);
        let text = std::fs::read_to_string(&log).expect("the log");
        let lines: Vec<Value> = text.lines().map(json).collect();
        let last = lines.last().expect("at least the final report");
        assert_eq!(last["nodes"], "197281", "{text}");
        assert_eq!(last["tasks_done"], last["tasks_total"], "{text}");
        let seconds: Vec<f64> = lines
            .iter()
            .map(|line| line["seconds"].as_f64().expect("seconds"))
            .collect();
        assert!(seconds.windows(2).all(|pair| pair[0] <= pair[1]), "{text}");
        match tt {
            "off" => assert!(last["tt"].is_null(), "{text}"),
            _ => {
                assert!(
                    last["tt"]["probes"]
                        .as_u64()
                        .is_some_and(|probes| probes > 0),
                    "{text}"
                );
                // The stores forecast for the end: none at a depth under 5.
                assert!(last["tt"]["expected_stores"].is_null(), "{text}");
                assert!(last["tt"].get("expected_stores").is_some(), "{text}");
            }
        }
    }
    let missing = dir.join("no-such-folder").join("progress.jsonl");
    let run = vkperft(&[
        "perft",
        "--depth",
        "4",
        "--progress-log",
        missing.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write the progress log"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    std::fs::remove_dir_all(&dir).expect("removed");
}
