//! The transposition table on the command line: the JSON report, the text table and risk line,
//! bad sizes and verifier widths, and `--cross-check`.

use crate::common::{run_vkperft, Run};
use serde_json::Value;
use std::collections::BTreeSet;
use vkperft::chess::{Position, Zobrist};
use vkperft::cpu::search::{SubtreeSearch, TtSearch};
use vkperft::tt::{TranspositionTable, TtConfig, TtMode};

const START_5: u128 = 4_865_609;
const TOTAL_KEYS: [&str; 17] = [
    "mode",
    "slots",
    "compact_slots",
    "bytes",
    "budget_bytes",
    "probes",
    "hits",
    "misses",
    "stores",
    "overwrites",
    "occupancy",
    "wrong_occupied_probes",
    "false_hits",
    "fast_total",
    "payload_skips",
    "per_depth",
    "risk",
];
/// The counters of the report, each also in every `per_depth` entry.
const COUNTERS: [&str; 9] = [
    "probes",
    "hits",
    "misses",
    "stores",
    "overwrites",
    "occupancy",
    "wrong_occupied_probes",
    "false_hits",
    "payload_skips",
];
const RISK_KEYS: [&str; 6] = [
    "verifier_bits",
    "wrong_occupied_probes",
    "expected_false_hits",
    "p_false_hit",
    "nodes",
    "scale_pairs",
];

/// Runs `vkperft perft` on the CPU with `args` (tests/gpu_cli.rs covers the GPU's table).
fn perft(args: &[&str]) -> Run {
    run_vkperft(&[&["perft", "--backend", "cpu"], args].concat(), &[])
}

fn perft_json(args: &[&str], expected_code: i32) -> (Value, Run) {
    let run = perft(&[args, &["--json"]].concat());
    assert_eq!(run.code, expected_code, "{args:?}: {}", run.stderr);
    let json = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", run.stdout));
    (json, run)
}

/// Bad input: exit 2, nothing on stdout, and an error on stderr, which is returned.
fn bad_input(args: &[&str]) -> String {
    let run = perft(args);
    assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "{args:?}");
    assert!(run.stderr.contains("error"), "{args:?}: {}", run.stderr);
    run.stderr
}

fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect()
}

fn uint(value: &Value) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("not an unsigned integer: {value}"))
}

/// A 128-bit count, which the JSON carries as a decimal string.
fn big(value: &Value) -> u128 {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
}

fn close(actual: f64, expected: f64) -> bool {
    actual == expected || ((actual - expected) / expected).abs() < 1e-9
}

/// The keys, the counter identities, the per-depth sums and the risk model of a `tt` report of
/// a run of `nodes` nodes with `bits` verifier bits.
fn check_tt_report(tt: &Value, mode: &str, nodes: u128, bits: u32) {
    assert_eq!(keys(tt), BTreeSet::from(TOTAL_KEYS), "{tt}");
    assert_eq!(tt["mode"], mode);
    assert_eq!(uint(&tt["probes"]), uint(&tt["hits"]) + uint(&tt["misses"]));
    assert!(uint(&tt["overwrites"]) <= uint(&tt["stores"]));
    assert!(uint(&tt["wrong_occupied_probes"]) <= uint(&tt["probes"]));
    assert!(uint(&tt["bytes"]) >= uint(&tt["slots"]) && uint(&tt["slots"]) > 0);
    let occupancy = tt["occupancy"].as_f64().expect("a number");
    assert!((0.0..=1.0).contains(&occupancy), "{tt}");
    if mode == "certify" {
        assert!(tt["fast_total"].is_string(), "{tt}");
    } else {
        assert!(tt["fast_total"].is_null(), "{tt}");
        assert_eq!(uint(&tt["false_hits"]), 0);
    }

    let per_depth = tt["per_depth"].as_array().expect("an array");
    assert!(!per_depth.is_empty());
    let mut depth_keys = BTreeSet::from(COUNTERS);
    depth_keys.extend(["depth", "verifier_bits"]);
    for entry in per_depth {
        assert_eq!(keys(entry), depth_keys, "{entry}");
        assert_eq!(
            uint(&entry["probes"]),
            uint(&entry["hits"]) + uint(&entry["misses"])
        );
    }
    for counter in COUNTERS {
        if counter == "occupancy" {
            let sum: f64 = per_depth
                .iter()
                .map(|e| e[counter].as_f64().unwrap_or(-1.0))
                .sum();
            assert!(
                (sum - occupancy).abs() < 1e-9,
                "occupancy {sum} != {occupancy}"
            );
        } else {
            let sum: u64 = per_depth.iter().map(|e| uint(&e[counter])).sum();
            assert_eq!(sum, uint(&tt[counter]), "{counter}");
        }
    }

    let risk = &tt["risk"];
    assert_eq!(keys(risk), BTreeSet::from(RISK_KEYS), "{risk}");
    assert_eq!(uint(&risk["verifier_bits"]), u64::from(bits));
    assert_eq!(big(&risk["nodes"]), nodes);
    let wrong = big(&risk["wrong_occupied_probes"]);
    assert_eq!(wrong, u128::from(uint(&tt["wrong_occupied_probes"])));
    let lambda = risk["expected_false_hits"].as_f64().expect("a number");
    // Each depth's wrong-occupied probes at the width that depth compares.
    let expected_lambda: f64 = per_depth
        .iter()
        .map(|e| {
            let bits = uint(&e["verifier_bits"]) as i32;
            uint(&e["wrong_occupied_probes"]) as f64 / 2f64.powi(bits)
        })
        .sum();
    assert!(close(lambda, expected_lambda), "{risk}");
    if uint(&tt["compact_slots"]) == 0 {
        assert!(per_depth
            .iter()
            .all(|e| uint(&e["verifier_bits"]) == u64::from(bits)));
    }
    let p = risk["p_false_hit"].as_f64().expect("a number");
    assert!(close(p, -(-lambda).exp_m1()), "{risk}");
    let pairs = risk["scale_pairs"].as_f64().expect("a number");
    let expected_pairs = nodes as f64 * (nodes - 1) as f64 / 2f64.powi(bits as i32 + 1);
    assert!(close(pairs, expected_pairs), "{risk}");
}

#[test]
fn json_report_of_each_mode() {
    for mode in ["fast", "verified", "certify"] {
        let (json, _) = perft_json(&["--depth", "5", "--tt", mode, "--tt-mb", "4"], 0);
        assert_eq!(big(&json["nodes"]), START_5, "{mode}");
        let tt = &json["tt"];
        check_tt_report(tt, mode, START_5, 64);
        assert!(uint(&tt["hits"]) > 0, "{mode}: {tt}");
        if mode == "certify" {
            assert_eq!(big(&tt["fast_total"]), START_5);
        }
    }
    let (json, _) = perft_json(&["--depth", "4", "--tt", "off"], 0);
    assert_eq!(big(&json["nodes"]), 197_281);
    assert!(json["tt"].is_null(), "{json}");
}

#[test]
fn text_shows_the_table_and_the_risk_line() {
    for mode in ["fast", "verified", "certify"] {
        let run = perft(&["--depth", "4", "--tt", mode, "--tt-mb", "1"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let out = &run.stdout;
        assert!(out.contains("Nodes searched: 197281\n"), "{out}");
        assert!(out.contains(&format!("TT {mode}: ")), "{out}");
        assert!(out.contains("wrong-occupied"), "{out}");
        assert!(
            out.lines()
                .any(|line| line.trim_start().starts_with("total ")),
            "{out}"
        );
        assert!(out.contains("risk at 64 bits: "), "{out}");
        assert_eq!(
            out.contains("fast total: 197281 (what the fast table alone would have counted)"),
            mode == "certify",
            "{out}"
        );
    }
    let run = perft(&["--depth", "4", "--tt", "off"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !run.stdout.contains("TT ") && !run.stdout.contains("risk"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_sizes_and_widths_exit_2() {
    for mode in ["fast", "verified", "certify"] {
        let zero = bad_input(&["--depth", "3", "--tt", mode, "--tt-mb", "0"]);
        assert!(zero.contains("--tt-mb"), "{zero}");
        // About 95 TiB: more than any test machine has.
        let huge = bad_input(&["--depth", "3", "--tt", mode, "--tt-mb", "100000000"]);
        assert!(huge.contains("--tt-mb"), "{huge}");
    }
    for bits in ["7", "65", "0"] {
        let message = bad_input(&["--depth", "3", "--verifier-bits", bits]);
        assert!(message.contains("--verifier-bits"), "{message}");
    }
}

#[test]
fn cross_check_agrees() {
    let (json, run) = perft_json(&["--depth", "5", "--tt", "fast", "--cross-check"], 0);
    let cross = &json["cross_check"];
    assert_eq!(
        keys(cross),
        BTreeSet::from(["zobrist_seed", "nodes", "agrees"])
    );
    assert_ne!(cross["zobrist_seed"], json["zobrist_seed"], "{json}");
    assert_eq!(big(&cross["nodes"]), START_5);
    assert_eq!(cross["agrees"], true);
    assert!(!run.stderr.contains("error"), "{}", run.stderr);

    let run = perft(&["--depth", "4", "--tt", "verified", "--cross-check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(": 197281 nodes, agrees\n"),
        "{}",
        run.stdout
    );
}

/// An 8-bit fast verifier lets false hits through; on one thread the run is deterministic, and
/// with these seeds the two totals differ (4864827 and 4865609).
#[test]
fn cross_check_mismatch_exits_3() {
    let args = [
        "--depth",
        "5",
        "--tt",
        "fast",
        "--verifier-bits",
        "8",
        "--tt-mb",
        "1",
        "--threads",
        "1",
        "--cross-check",
    ];
    let (json, run) = perft_json(&args, 3);
    let first = big(&json["nodes"]);
    let second = big(&json["cross_check"]["nodes"]);
    assert_ne!(first, second);
    assert_eq!(json["cross_check"]["agrees"], false);
    assert!(run.stderr.contains("cross-check failed"), "{}", run.stderr);
    for total in [first, second] {
        assert!(run.stderr.contains(&total.to_string()), "{}", run.stderr);
    }
    check_tt_report(&json["tt"], "fast", first, 8);

    let text = perft(&args);
    assert_eq!(text.code, 3, "{}", text.stderr);
    assert!(text.stdout.contains("DIFFERS"), "{}", text.stdout);
}

/// The same narrowed verifier in certify: the fast table's false hits are caught, the total
/// stays exact and the fast total shows the drift (4893407 on one thread).
#[test]
fn certify_catches_false_hits() {
    let (json, _) = perft_json(
        &[
            "--depth",
            "5",
            "--tt",
            "certify",
            "--verifier-bits",
            "8",
            "--tt-mb",
            "1",
            "--threads",
            "1",
        ],
        0,
    );
    assert_eq!(big(&json["nodes"]), START_5);
    let tt = &json["tt"];
    check_tt_report(tt, "certify", START_5, 8);
    assert!(uint(&tt["false_hits"]) > 0, "{tt}");
    assert_ne!(big(&tt["fast_total"]), START_5, "{tt}");
    assert!(
        tt["risk"]["expected_false_hits"].as_f64() > Some(1.0),
        "{tt}"
    );
}

/// The report of a table the CPU search filled (certify, start position perft 4): exactly the
/// agreed keys, in its total, every depth and the risk, and a text of one line per depth.
#[test]
fn table_report_json_has_exactly_the_agreed_keys() {
    let tt = TranspositionTable::new(&TtConfig::new(TtMode::Certify, 1 << 14))
        .expect("a small table fits");
    let zobrist = Zobrist::default();
    let root = Position::startpos();
    let search = TtSearch {
        table: &tt,
        zobrist: &zobrist,
    };
    let mut worker = search.worker();
    let counts = search.count(&mut worker, &root, zobrist.hash(&root), 4);
    let (exact, fast) = (counts.nodes, counts.fast_nodes);
    let snapshot = tt.snapshot();
    let json = snapshot.to_json(Some(fast), exact);
    assert_eq!(keys(&json), BTreeSet::from(TOTAL_KEYS));

    // Depths 2 to 4: the search bulk-counts depth 1 without the table.
    let per_depth = json["per_depth"].as_array().cloned().unwrap_or_default();
    assert_eq!(per_depth.len(), 3);
    let mut depth_keys = BTreeSet::from(COUNTERS);
    depth_keys.extend(["depth", "verifier_bits"]);
    for entry in &per_depth {
        assert_eq!(keys(entry), depth_keys);
    }
    assert_eq!(keys(&json["risk"]), BTreeSet::from(RISK_KEYS));
    assert_eq!(json["mode"], "certify");
    assert_eq!(json["fast_total"], "197281");
    assert_eq!(json["risk"]["nodes"], "197281");
    assert_eq!(json["probes"], snapshot.total.probes);

    let fast_only = tt.snapshot().to_json(None, exact);
    assert!(fast_only["fast_total"].is_null());

    let text = snapshot.render_text(Some(fast), exact);
    assert!(text.contains("total"));
    assert!(text.contains("risk at 64 bits"));
    // Title, column names, three depths, total, fast total, risk.
    assert_eq!(text.lines().count(), 2 + 3 + 1 + 2);
}

/// A fast count whose chance of a false hit is not negligible says so, whether or not a
/// published value exists (Kiwipete with black to move has none), and names the exact modes;
/// at 64 verifier bits, or in an exact mode, nothing is said.
#[test]
fn a_fast_count_at_risk_warns_published_value_or_not() {
    const KIWIPETE_BLACK: &str =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
    let run = |extra: &[&str]| {
        let mut args = vec![
            "perft",
            "--fen",
            KIWIPETE_BLACK,
            "--depth",
            "4",
            "--backend",
            "cpu",
            "--threads",
            "1",
            "--tt-mb",
            "1",
        ];
        args.extend_from_slice(extra);
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
        run
    };
    let narrowed = run(&["--tt", "fast", "--verifier-bits", "8"]);
    assert!(
        narrowed.stderr.contains("warning: the count may be wrong")
            && narrowed.stderr.contains("--tt verified or --tt certify"),
        "{}",
        narrowed.stderr
    );
    for extra in [
        &["--tt", "fast"][..],
        &["--tt", "certify", "--verifier-bits", "8"],
    ] {
        let quiet = run(extra);
        assert!(
            !quiet.stderr.contains("may be wrong"),
            "{extra:?}: {}",
            quiet.stderr
        );
    }
}

/// Options the others make meaningless are refused, not ignored: a Vulkan device or GPU memory
/// for a CPU run, a narrowed verifier for a mode without a fast verifier.
#[test]
fn options_that_would_be_ignored_are_refused() {
    for (extra, words) in [
        (&["--backend", "cpu", "--device", "3"][..], "--device"),
        (&["--backend", "cpu", "--gpu-mem-mb", "0"], "--gpu-mem-mb"),
        (&["--tt", "off", "--verifier-bits", "8"], "--verifier-bits"),
        (
            &["--tt", "verified", "--verifier-bits", "8"],
            "--tt verified has none",
        ),
    ] {
        let mut args = vec!["perft", "--depth", "2"];
        args.extend_from_slice(extra);
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 2, "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains(words), "{extra:?}: {}", run.stderr);
    }
}

/// A memory cgroup made below this process's own with a limit, for the duration of a test;
/// removed when dropped (its processes have exited by then).
struct LimitedCgroup {
    dir: std::path::PathBuf,
}

impl LimitedCgroup {
    /// A child of this process's memory cgroup (v1 `memory` hierarchy or v2 with the memory
    /// controller) limited to `bytes`, or the reason none can be made here (not root, no
    /// memory controller, a read-only hierarchy).
    fn create(bytes: u64) -> Result<Self, String> {
        let membership = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let (parent, limit_file) = membership
            .lines()
            .find_map(|line| {
                let mut fields = line.splitn(3, ':');
                let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
                controllers.split(',').any(|c| c == "memory").then(|| {
                    (
                        format!("/sys/fs/cgroup/memory{path}"),
                        "memory.limit_in_bytes",
                    )
                })
            })
            .or_else(|| {
                let path = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
                let controllers =
                    std::fs::read_to_string("/sys/fs/cgroup/cgroup.subtree_control").ok()?;
                controllers
                    .split_whitespace()
                    .any(|c| c == "memory")
                    .then(|| (format!("/sys/fs/cgroup{path}"), "memory.max"))
            })
            .ok_or("no memory cgroup")?;
        let dir =
            std::path::Path::new(&parent).join(format!("vkperft-tt-test-{}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let group = LimitedCgroup { dir };
        std::fs::write(group.dir.join(limit_file), bytes.to_string())
            .map_err(|e| format!("{limit_file}: {e}"))?;
        Ok(group)
    }

    /// Runs vkperft with `args` inside the group: the shell joins it, then becomes vkperft.
    fn run_vkperft(&self, args: &[&str]) -> Run {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"echo $$ > "$1/cgroup.procs" && shift 2 && exec "$0" "$@""#)
            .arg(env!("CARGO_BIN_EXE_vkperft"))
            .arg(&self.dir)
            .arg("--")
            .args(args)
            .output()
            .expect("sh starts");
        Run {
            code: output.status.code().expect("exited, not killed"),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Drop for LimitedCgroup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// In a real 1 GiB memory cgroup (Slurm's `--mem`, a container's limit), a 2 GiB table is
/// refused with the cgroup named, where the host alone has room and the OOM killer would
/// otherwise end the run with no message; a table that fits runs. Where no cgroup can be made
/// (not root, no memory controller) the parsing of both versions is covered by
/// `tt::memory`'s unit tests and this says why it did not run.
#[test]
fn a_table_larger_than_the_cgroup_limit_is_refused() {
    let group = match LimitedCgroup::create(1 << 30) {
        Ok(group) => group,
        Err(why) => {
            eprintln!("not run: no memory cgroup can be made here ({why})");
            return;
        }
    };
    let base = ["perft", "--backend", "cpu", "--depth", "3", "--tt", "fast"];
    let refused = group.run_vkperft(&[&base[..], &["--tt-mb", "2048"]].concat());
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("--tt-mb") && refused.stderr.contains("cgroup"),
        "{}",
        refused.stderr
    );
    let fits = group.run_vkperft(&[&base[..], &["--tt-mb", "64", "--json"]].concat());
    assert_eq!(fits.code, 0, "{}", fits.stderr);
    let json: Value = serde_json::from_str(fits.stdout.trim()).expect("JSON");
    assert_eq!(big(&json["nodes"]), 8902, "{json}");
}
