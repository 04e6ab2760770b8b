//! `vkperft bench --peer-bin NAME=PATH`: stand-ins that print each peer's output format, the
//! columns and JSON fields they fill, and the errors of a peer that is missing, wrong, crashes
//! or prints no total.

use crate::common::{run_vkperft, Run};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use vkperft::reference;

/// A scratch directory of this test process and test, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir =
        std::env::temp_dir().join(format!("vkperft-bench-peers-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    Scratch(dir)
}

/// A shell function `count FEN DEPTH` that prints the published perft, 1 at depth 0, or 0.
fn count_function() -> String {
    let mut text = String::from("count() {\n  case \"$1|$2\" in\n    *'|0') echo 1 ;;\n");
    for value in reference::values().iter().filter(|v| v.depth <= 4) {
        text += &format!(
            "    '{}|{}') echo {} ;;\n",
            value.fen, value.depth, value.nodes
        );
    }
    text + "    *) echo 0 ;;\n  esac\n}\n"
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{}{body}", count_function())).expect("written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_str().expect("a UTF-8 path").to_string()
}

/// Gigantua: every depth from 1, then a prompt that waits for a key.
const GIGANTUA: &str = r#"echo "Depth: $2 - $1"
i=1
while [ "$i" -le "$2" ]; do
  echo "Perft $i: $(count "$1" "$i") 3ms 2.96733 MNodes/s"
  i=$((i + 1))
done
printf '\nPress any key to exit...'
read -r key || true
"#;

/// ellxor/perft, multi-threaded from depth 3.
const ELLXOR: &str = r#"[ "$2" -ge 3 ] && printf 'Running multi-threaded perft on 2 threads.\n\n'
echo "Result:            $(count "$1" "$2")"
echo "Time taken:        0.001 seconds."
echo "Nodes per second:  9 million."
"#;

/// MPerft 2.0 with `--fen FEN --depth N --bulk`.
const MPERFT: &str = r#"fen=$2 depth=$4
echo
echo "Magic Perft (c) version 2.0 Richard Delorme - 2026"
echo "Bitboard move generation based on magic (pext) bitboards"
echo "Perft setting: no hashing; with bulk counting;"
echo "  a b c d e f g h"
printf 'perft %2d : %15d leaves in %10.3f s %12.0f leaves/s\n' "$depth" "$(count "$fen" "$depth")" 0.001 8902000
echo "full time:      0.001 s"
"#;

/// MPerft 5 with `--fen FEN --depth N --bulk --nullmove`: thousands separated by commas. It
/// refuses to count without `--nullmove`, so that the test sees the option passed.
const MPERFT_NULL: &str = r#"fen=$2 depth=$4
[ "$6" = --nullmove ] || { echo "no --nullmove: $*" >&2; exit 1; }
echo "Magic Perft version 5.1 (c) Richard Delorme 2020 - 2026"
echo "Perft setting: no hashing; no multithreading; with nullmove counting."
n=$(count "$fen" "$depth" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
printf 'perft %2d: %26s positions in %s %spos/s\n' "$depth" "$n" "0.001" "8.9 M"
echo "full time:    0.001 s"
"#;

/// perft_cpu_2026 with `FEN DEPTH -nott`; it refuses to run without `-nott` or `-htt MIB` (the
/// real one would take most of the machine's memory for its table).
const PERFT_CPU_2026: &str = r#"case "$3" in -nott|-htt) ;; *) echo "no table option: $*" >&2; exit 1 ;; esac
printf 'Perft(%02d): %s, time: 0.001 seconds, nps: 8902000\n' "$2" "$(count "$1" "$2")"
"#;

/// Stockfish over UCI.
const STOCKFISH: &str = r#"while read -r line; do
  case "$line" in
    uci) echo 'id name Stockfish 15.1'; echo uciok ;;
    isready) echo readyok ;;
    'position fen '*) fen=${line#position fen } ;;
    'go perft '*) echo; echo "Nodes searched: $(count "$fen" "${line#go perft }")"; echo ;;
    quit) exit 0 ;;
  esac
done
"#;

/// Every peer `bench` knows, in the order it lists them.
const PEER_NAMES: [&str; 6] = [
    "stockfish",
    "gigantua",
    "ellxor",
    "mperft",
    "mperft-null",
    "perft_cpu_2026",
];

struct Peers {
    gigantua: String,
    ellxor: String,
    mperft: String,
    mperft_null: String,
    perft_cpu_2026: String,
    stockfish: String,
}

fn peers(dir: &Path) -> Peers {
    Peers {
        gigantua: script(dir, "gigantua", GIGANTUA),
        ellxor: script(dir, "ellxor", ELLXOR),
        mperft: script(dir, "mperft", MPERFT),
        mperft_null: script(dir, "mperft-null", MPERFT_NULL),
        perft_cpu_2026: script(dir, "perft_cpu_2026", PERFT_CPU_2026),
        stockfish: script(dir, "stockfish", STOCKFISH),
    }
}

fn bench(extra: &[&str]) -> Run {
    let mut args = vec!["bench", "--threads", "1", "--tt", "off"];
    args.extend_from_slice(extra);
    run_vkperft(&args, &[])
}

/// `bench` of the start position to `depth`, then `extra`.
fn bench_startpos(depth: &str, extra: &[&str]) -> Run {
    let mut args = vec!["--position", "startpos", "--depth", depth];
    args.extend_from_slice(extra);
    bench(&args)
}

fn all_peers(peers: &Peers) -> Vec<String> {
    [
        ("stockfish", &peers.stockfish),
        ("gigantua", &peers.gigantua),
        ("ellxor", &peers.ellxor),
        ("mperft", &peers.mperft),
        ("mperft-null", &peers.mperft_null),
        ("perft_cpu_2026", &peers.perft_cpu_2026),
    ]
    .iter()
    .flat_map(|(name, path)| ["--peer-bin".to_string(), format!("{name}={path}")])
    .collect()
}

#[test]
fn every_peer_gets_its_columns_in_text() {
    let dir = scratch("text");
    let peers = peers(&dir);
    let flags = all_peers(&peers);
    let mut args = vec!["--position", "kiwipete", "--depth", "3"];
    args.extend(flags.iter().map(String::as_str));
    let run = bench(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let (header, row) = (lines[1], lines[2]);
    for name in PEER_NAMES {
        // Columns are right-aligned: a cell ends where its title ends.
        let title = format!("off/{name}");
        let end = header
            .find(&title)
            .unwrap_or_else(|| panic!("no {title} in {header}"));
        let ratio = row[..end + title.len()]
            .split_whitespace()
            .last()
            .expect("a cell");
        assert!(ratio.ends_with('x'), "{name}: {ratio} in {row}");
        let ratio: f64 = ratio.trim_end_matches('x').parse().expect("a ratio");
        assert!(ratio > 0.0 && ratio.is_finite(), "{name}: {ratio}");
    }
    let row: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(row[0], "kiwipete");
    assert_eq!(row[2], "97862");
    assert!(lines[3].starts_with("total"), "{}", run.stdout);
    assert_eq!(
        lines[3].matches('x').count(),
        PEER_NAMES.len(),
        "{}",
        lines[3]
    );
}

#[test]
fn every_peer_gets_its_fields_in_json() {
    let dir = scratch("json");
    let peers = peers(&dir);
    let flags = all_peers(&peers);
    let mut args = vec!["--depth", "3", "--json"];
    args.extend(flags.iter().map(String::as_str));
    let run = bench(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    let names: Vec<&str> = value["peers"]
        .as_array()
        .expect("peers")
        .iter()
        .map(|peer| peer["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, PEER_NAMES);
    assert_eq!(value["peers"][1]["path"], peers.gigantua.as_str());
    assert_eq!(value["peers"][1]["skipped"], Value::Null);
    let positions = value["positions"].as_array().expect("positions");
    assert_eq!(positions.len(), 6);
    for row in positions.iter().chain([&value["total"]]) {
        for name in names.iter().copied() {
            assert_eq!(
                row["peers"][name]["nodes"], row["off"]["nodes"],
                "{name}: {row}"
            );
            assert!(row["peers"][name]["elapsed_s"].as_f64().expect("seconds") > 0.0);
            let ratio = row["off"]["vs_peers"][name].as_f64().expect("a ratio");
            let expected = row["off"]["nps"].as_f64().expect("nps")
                / row["peers"][name]["nps"].as_f64().expect("nps");
            assert!((ratio - expected).abs() <= 1e-9 * expected, "{name}: {row}");
        }
    }
}

#[test]
fn peer_stockfish_still_runs_stockfish() {
    let dir = scratch("stockfish");
    let peers = peers(&dir);
    let run = bench_startpos("3", &["--peer", &peers.stockfish]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("stockfish s"), "{}", run.stdout);
    assert!(run.stdout.contains("off/stockfish"), "{}", run.stdout);
    let run = bench_startpos(
        "3",
        &[
            "--peer",
            &peers.stockfish,
            "--peer-bin",
            &format!("stockfish={}", peers.stockfish),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("already a peer"), "{}", run.stderr);
}

#[test]
fn a_depth_a_peer_cannot_count_shows_a_dash() {
    let dir = scratch("dash");
    let peers = peers(&dir);
    let gigantua = format!("gigantua={}", peers.gigantua);
    let mperft = format!("mperft={}", peers.mperft);
    let run = bench_startpos("0", &["--peer-bin", &gigantua, "--peer-bin", &mperft]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let row = run.stdout.lines().nth(2).expect("a row");
    assert_eq!(row.matches('—').count(), 3, "{row}");
    assert!(row.contains('x'), "mperft's ratio: {row}");
    assert_eq!(
        run.stderr.matches("note: gigantua").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("depth 1"), "{}", run.stderr);
}

/// A failed run: the exit code, and a message that names the flag and `words`.
fn fails(dir: &Path, name: &str, body: &str, code: i32, words: &[&str]) {
    let path = script(dir, name, body);
    let flag = format!("{name}={path}");
    let run = bench_startpos("3", &["--peer-bin", &flag]);
    assert_eq!(run.code, code, "{name}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!("--peer-bin {flag}")),
        "{}",
        run.stderr
    );
    for word in words {
        assert!(run.stderr.contains(word), "{word}: {}", run.stderr);
    }
}

#[test]
fn a_peer_that_counts_otherwise_is_a_mismatch() {
    let dir = scratch("wrong");
    let wrong = ELLXOR.replace("$(count \"$1\" \"$2\")", "8903");
    fails(&dir, "ellxor", &wrong, 3, &["startpos", "8902", "8903"]);
}

#[test]
fn a_peer_that_crashes_or_prints_no_total_fails() {
    let dir = scratch("crash");
    fails(
        &dir,
        "gigantua",
        "echo 'Depth: 3'\nkill -SEGV $$\n",
        1,
        &["failed", "signal"],
    );
    fails(
        &dir,
        "mperft",
        "echo starting\necho oops >&2\nexit 7\n",
        1,
        &["failed", "oops"],
    );
    fails(
        &dir,
        "ellxor",
        "echo 'Time taken: 0.001 seconds.'\n",
        1,
        &["no total"],
    );
    fails(&dir, "stockfish", "read -r line\nexit 0\n", 2, &["exited"]);
}

/// A Stockfish whose output is not UTF-8 (an author's name in Latin-1) is read on; one that
/// closes its output but runs on is killed before it is waited for, so `bench` ends with an
/// error instead of waiting for it (the bound is far above what the error takes on a loaded
/// machine, and far below the peer's sleep).
#[test]
fn a_peer_with_latin1_output_runs_and_one_that_closes_its_output_is_killed() {
    let dir = scratch("latin1");
    let latin1 = script(
        &dir,
        "stockfish",
        &STOCKFISH.replace(
            "echo 'id name Stockfish 15.1'",
            "printf 'id author J\\366rg\\n'",
        ),
    );
    let flag = format!("stockfish={latin1}");
    let run = bench_startpos("3", &["--peer-bin", &flag]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);

    let silent = script(&dir, "silent", "exec >&-\nexec sleep 600\n");
    let flag = format!("stockfish={silent}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args([
            "bench",
            "--threads",
            "1",
            "--tt",
            "off",
            "--position",
            "startpos",
        ])
        .args(["--depth", "3", "--peer-bin", &flag])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("started");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waited") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("bench waits for a peer that closed its output");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("a pipe"), &mut stderr)
        .expect("read");
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("exited unexpectedly"), "{stderr}");
}

#[test]
fn a_bad_peer_bin_is_bad_input() {
    let dir = scratch("bad");
    let peers = peers(&dir);
    let not_executable = dir.join("not-executable");
    std::fs::write(&not_executable, "#!/bin/sh\n").expect("written");
    let cases = [
        (
            format!("frobnicate={}", peers.mperft),
            "unknown peer 'frobnicate'",
        ),
        (peers.mperft.clone(), "NAME=PATH"),
        ("mperft=".to_string(), "no path"),
        (format!("mperft={}/absent", dir.display()), "absent"),
        (
            format!("mperft={}", not_executable.display()),
            "not executable",
        ),
        (format!("mperft={}", dir.display()), "not a file"),
    ];
    for (value, words) in cases {
        let run = bench_startpos("1", &["--peer-bin", &value]);
        assert_eq!(run.code, 2, "{value}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.stdout, "", "{value}");
        assert!(run.stderr.contains("--peer-bin"), "{value}: {}", run.stderr);
        assert!(run.stderr.contains(words), "{value}: {}", run.stderr);
    }
}

#[test]
fn runs_keep_each_programs_fastest_time() {
    let dir = scratch("runs");
    let log = dir.join("ellxor-runs");
    // The first run of the stand-in is slow, the later ones fast; each run leaves a line.
    let body = format!(
        "[ -s '{log}' ] || sleep 1\necho run >> '{log}'\n{ELLXOR}",
        log = log.display()
    );
    let ellxor = format!("ellxor={}", script(&dir, "ellxor", &body));
    let run = bench(&[
        "--position",
        "kiwipete",
        "--depth",
        "2",
        "--runs",
        "3",
        "--json",
        "--peer-bin",
        &ellxor,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!(value["runs"], 3);
    let runs = std::fs::read_to_string(&log).expect("the stand-in's log");
    assert_eq!(runs.lines().count(), 3, "{runs}");
    let row = &value["positions"][0];
    assert_eq!(row["peers"]["ellxor"]["nodes"], "2039");
    let seconds = row["peers"]["ellxor"]["elapsed_s"]
        .as_f64()
        .expect("seconds");
    assert!(seconds < 0.9, "the fastest run, not the first: {row}");

    let text = bench(&["--position", "kiwipete", "--depth", "2", "--runs", "2"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.starts_with("vkperft bench:") && text.stdout.contains("fastest of 2 runs"),
        "{}",
        text.stdout
    );
    for runs in ["0", "101", "two"] {
        let run = bench(&["--position", "kiwipete", "--depth", "1", "--runs", runs]);
        assert_eq!(run.code, 2, "--runs {runs}: {}", run.stderr);
        assert!(run.stderr.contains("--runs"), "{}", run.stderr);
    }
}

/// Kiwipete at depth 3 without a table and with a 16 MiB `fast` table, beside `peers`
/// (`NAME=PATH` each), in JSON.
fn table_bench(peers: &[&str]) -> Run {
    let mut args = vec![
        "bench",
        "--backend",
        "cpu",
        "--threads",
        "1",
        "--modes",
        "off,fast",
        "--tt-mb",
        "16",
        "--position",
        "kiwipete",
        "--depth",
        "3",
        "--json",
    ];
    for peer in peers {
        args.extend(["--peer-bin", peer]);
    }
    run_vkperft(&args, &[])
}

/// With a mode that keeps a table, a peer that has one (MPerft) runs a second time with a
/// table of the same size (`-h MIB`): the mode compares with that run, `off` with the run
/// without; a peer without a table (ellxor) gives both its one run.
#[test]
fn a_peer_with_a_table_runs_with_the_modes_table_size() {
    let dir = scratch("tables");
    let log = dir.join("mperft-arguments");
    let body = format!("echo \"$*\" >> '{}'\n{MPERFT}", log.display());
    let mperft = format!("mperft={}", script(&dir, "mperft", &body));
    let ellxor = format!("ellxor={}", script(&dir, "ellxor", ELLXOR));
    let run = table_bench(&[&mperft, &ellxor]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let arguments = std::fs::read_to_string(&log).expect("the stand-in's log");
    let lines: Vec<&str> = arguments.lines().collect();
    assert_eq!(lines.len(), 2, "{arguments}");
    assert!(lines[0].ends_with("--depth 3 --bulk"), "{arguments}");
    assert!(lines[1].ends_with("--depth 3 --bulk -h 16"), "{arguments}");
    let value: Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    for row in [&value["positions"][0], &value["total"]] {
        let nps = |entry: &Value| entry["nps"].as_f64().expect("nps");
        let mperft = &row["peers"]["mperft"];
        let table = &mperft["table"];
        assert_eq!(table["nodes"], row["off"]["nodes"], "{row}");
        let ratio = |mode: &str, peer: &str| row[mode]["vs_peers"][peer].as_f64().expect("a ratio");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
        assert!(
            close(ratio("fast", "mperft"), nps(&row["fast"]) / nps(table)),
            "{row}"
        );
        assert!(
            close(ratio("off", "mperft"), nps(&row["off"]) / nps(mperft)),
            "{row}"
        );
        let ellxor = &row["peers"]["ellxor"];
        assert_eq!(ellxor["table"], Value::Null, "{row}");
        assert!(
            close(ratio("fast", "ellxor"), nps(&row["fast"]) / nps(ellxor)),
            "{row}"
        );
    }
    let text = run_vkperft(
        &[
            "bench",
            "--backend",
            "cpu",
            "--threads",
            "1",
            "--modes",
            "off,fast",
            "--position",
            "kiwipete",
            "--depth",
            "2",
            "--peer-bin",
            &mperft,
        ],
        &[],
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("mperft+tt Mnps"), "{}", text.stdout);
}

/// perft_cpu_2026 is told `-nott` when it runs without a table (it would otherwise take most of
/// the memory for one) and `-htt MIB` with the modes' table size.
#[test]
fn perft_cpu_2026_runs_without_and_with_a_table_as_asked() {
    let dir = scratch("perft-cpu-2026");
    let log = dir.join("arguments");
    let body = format!("echo \"$*\" >> '{}'\n{PERFT_CPU_2026}", log.display());
    let peer = format!("perft_cpu_2026={}", script(&dir, "perft_cpu_2026", &body));
    let run = table_bench(&[&peer]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let arguments = std::fs::read_to_string(&log).expect("the stand-in's log");
    let lines: Vec<&str> = arguments.lines().collect();
    assert_eq!(lines.len(), 2, "{arguments}");
    assert!(lines[0].ends_with(" 3 -nott"), "{arguments}");
    assert!(lines[1].ends_with(" 3 -htt 16"), "{arguments}");
    let value: Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    let row = &value["positions"][0];
    assert_eq!(row["peers"]["perft_cpu_2026"]["nodes"], "97862");
    assert_eq!(row["peers"]["perft_cpu_2026"]["table"]["nodes"], "97862");
}

/// With `--threads 2` the peers that have a thread option count with two threads (MPerft's
/// `--threads 2`, perft_cpu_2026's `-mt 2`), with and without their tables; with one thread
/// they get no option (their default; MPerft 2 has none).
#[test]
fn peers_with_a_thread_option_get_benchs_threads() {
    let dir = scratch("threads");
    let logged = |name: &str, body: &str| {
        let log = dir.join(format!("{name}-arguments"));
        let body = format!("echo \"$*\" >> '{}'\n{body}", log.display());
        (format!("{name}={}", script(&dir, name, &body)), log)
    };
    let (mperft, mperft_log) = logged("mperft", MPERFT);
    let (perft_cpu, perft_cpu_log) = logged("perft_cpu_2026", PERFT_CPU_2026);
    let run = run_vkperft(
        &[
            "bench",
            "--backend",
            "cpu",
            "--threads",
            "2",
            "--modes",
            "off,fast",
            "--tt-mb",
            "16",
            "--position",
            "kiwipete",
            "--depth",
            "3",
            "--peer-bin",
            &mperft,
            "--peer-bin",
            &perft_cpu,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = |log: &Path| -> Vec<String> {
        std::fs::read_to_string(log)
            .expect("the stand-in's log")
            .lines()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        lines(&mperft_log)
            .iter()
            .map(|line| line.split_once("--depth 3 ").expect("the depth").1)
            .collect::<Vec<_>>(),
        ["--bulk --threads 2", "--bulk -h 16 --threads 2"]
    );
    assert_eq!(
        lines(&perft_cpu_log)
            .iter()
            .map(|line| line.split_once(" 3 ").expect("the depth").1)
            .collect::<Vec<_>>(),
        ["-nott -mt 2", "-htt 16 -mt 2"]
    );
}
