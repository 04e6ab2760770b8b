//! `vkperft work` and `vkperft unique` end to end on the CPU backend: exact totals and divides,
//! byte-identical plans, resuming after SIGKILL, torn and damaged journal lines, damaged
//! plans, disagreeing units, `compare` catching a narrowed fast table, and unique positions
//! per ply against OEIS A083276, scheduler tasks (`--shard-from-env`, the same shard twice at
//! once) and `work slurm` without a cluster (dry runs, a missing or failing sbatch).

use crate::common::{run_vkperft, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use vkperft::work::{JournalRecord, Method, PlanFolder};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn vkperft(args: &[&str]) -> Run {
    run_vkperft(args, &[])
}

/// An empty folder of this test's own, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("vkperft-work-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Folder(dir)
    }

    fn plan(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn ok(args: &[&str]) -> Run {
    let run = vkperft(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run
}

/// Exit 2 and an error naming `needle`.
fn refused(args: &[&str], code: i32, needle: &str) -> String {
    let run = vkperft(args);
    assert_eq!(run.code, code, "{args:?}: {}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    run.stderr
}

fn json(args: &[&str]) -> Value {
    let run = ok(args);
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn big(value: &Value) -> u128 {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
}

fn split(plan: &str, fen: &str, depth: u32, split_ply: u32, extra: &[&str]) -> Value {
    let (depth, split_ply) = (depth.to_string(), split_ply.to_string());
    let args = [
        &["work", "split", "--fen", fen, "--depth", &depth],
        &["--split-ply", &split_ply, "--out", plan][..],
        extra,
    ]
    .concat();
    ok(&args);
    manifest(plan)
}

fn manifest(plan: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(plan).join("manifest.json")).expect("manifest");
    serde_json::from_str(&text).expect("JSON")
}

/// Every journal line of `plan`, file by file.
fn journal_lines(plan: &str) -> Vec<Vec<String>> {
    let dir = Path::new(plan).join("journal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.expect("entry").path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("journal");
            text.lines().map(str::to_string).collect()
        })
        .collect()
}

fn unit_of(line: &str) -> u64 {
    let value: Value = serde_json::from_str(line).expect("a journal line");
    value["unit"].as_u64().expect("a unit id")
}

/// Plan totals and divides equal perft's, on the start position, Kiwipete and position 3.
#[test]
fn split_run_merge_is_exact() {
    let folder = Folder::new("exact");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases = [
        (start, 5, 2, 400, "400", 4_865_609u128),
        (KIWIPETE, 4, 2, 2_038, "2039", 4_085_603),
        (POSITION_3, 5, 3, 1_864, "2812", 674_624),
    ];
    for (index, (fen, depth, split_ply, units, paths, total)) in cases.into_iter().enumerate() {
        let plan = folder.plan(&format!("plan{index}"));
        let manifest = split(&plan, fen, depth, split_ply, &["--shards", "3"]);
        assert_eq!(manifest["units"], units, "{fen}");
        assert_eq!(manifest["paths"], paths, "{fen}");
        assert_eq!(manifest["shards"].as_array().map(Vec::len), Some(3));
        ok(&[
            "work",
            "run",
            &plan,
            "--backend",
            "cpu",
            "--threads",
            "2",
            "--tt-mb",
            "16",
        ]);
        let merged = json(&["work", "merge", &plan, "--json", "--divide"]);
        assert_eq!(big(&merged["nodes"]), total, "{fen}");
        assert_eq!(merged["units"], units);
        assert_eq!(merged["modes"], serde_json::json!(["fast"]));
        let depth = depth.to_string();
        let perft = json(&[
            "perft",
            "--fen",
            fen,
            "--depth",
            &depth,
            "--tt",
            "off",
            "--backend",
            "cpu",
            "--divide",
            "--json",
        ]);
        assert_eq!(merged["divide"], perft["divide"], "{fen}");
        let status = json(&["work", "status", &plan, "--json"]);
        assert_eq!(status["done"], units);
        assert_eq!(status["units"], units);
        assert_eq!(big(&status["nodes"]), total);
        assert_eq!(status["shards_complete"], 3);
    }
}

/// The same request gives the same bytes, whether the positions fit in memory or spill to
/// disk; the unit set is `unique`'s last ply.
#[test]
fn splitting_is_deterministic_and_its_units_are_the_unique_positions() {
    let folder = Folder::new("deterministic");
    let (a, b) = (folder.plan("a"), folder.plan("b"));
    split(&a, KIWIPETE, 5, 3, &["--shards", "4"]);
    split(&b, KIWIPETE, 5, 3, &["--shards", "4", "--mem-mb", "0"]);
    let names = ["manifest.json", "shard-00000.jsonl", "shard-00003.jsonl"];
    for name in names {
        let read = |plan: &str| std::fs::read(Path::new(plan).join(name)).expect(name);
        assert_eq!(read(&a), read(&b), "{name}");
    }
    let entries = std::fs::read_dir(&a).expect("plan").count();
    assert_eq!(
        entries, 5,
        "the manifest and four shards, nothing left over"
    );
    let unique = json(&["unique", "--fen", KIWIPETE, "--depth", "3", "--json"]);
    let ply3 = &unique["plies"][2];
    assert_eq!(
        manifest(&a)["units"].to_string(),
        ply3["unique"].as_str().unwrap_or("")
    );
    assert_eq!(manifest(&a)["paths"], ply3["paths"]);
    assert_eq!(ply3["paths"], "97862");
}

/// SIGKILL mid-run loses no journaled unit; the next run computes only the others and the
/// total is exact.
#[test]
fn a_run_killed_with_sigkill_resumes_to_the_exact_total() {
    let folder = Folder::new("killed");
    let plan = folder.plan("p");
    split(
        &plan,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        3,
        &[],
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args(["work", "run", &plan, "--backend", "cpu", "--tt", "off"])
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    while journal_lines(&plan).concat().len() < 300 {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let first = journal_lines(&plan);
    assert_eq!(first.len(), 1);
    let before = json(&["work", "status", &plan, "--json"]);
    let done = before["done"].as_u64().expect("done");
    assert!((300..5_362).contains(&done), "{done} units before the kill");
    assert!(before["torn_lines"].as_u64() <= Some(1));
    refused(&["work", "merge", &plan], 4, "have no result");

    let resumed = ok(&["work", "run", &plan, "--backend", "cpu", "--tt", "off"]);
    let expected = format!("{} units computed, {done} already journaled", 5_362 - done);
    assert!(resumed.stdout.contains(&expected), "{}", resumed.stdout);
    let after = journal_lines(&plan);
    assert_eq!(after.len(), 2);
    assert!(after[0].starts_with(&first[0]), "the first journal is kept");
    let kept: std::collections::HashSet<u64> = first[0]
        .iter()
        .take(done as usize)
        .map(|l| unit_of(l))
        .collect();
    assert!(after[1].iter().all(|line| !kept.contains(&unit_of(line))));
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(big(&merged["nodes"]), 119_060_324);
    assert_eq!(merged["units"], 5_362);
}

/// A torn last line is ignored; a damaged line elsewhere is ignored and its unit is missing;
/// two results of one unit that disagree stop the merge with exit 3.
#[test]
fn torn_damaged_and_disagreeing_journal_lines() {
    let folder = Folder::new("journal");
    let plan = folder.plan("p");
    split(&plan, KIWIPETE, 3, 1, &[]);
    ok(&["work", "run", &plan, "--backend", "cpu", "--threads", "1"]);
    let journal_dir = Path::new(&plan).join("journal");
    let lines = journal_lines(&plan).concat();
    assert_eq!(lines.len(), 48);

    // A crash in the middle of a line: no newline, the checksum fails.
    let torn = journal_dir.join("journal-9-torn.jsonl");
    std::fs::write(&torn, &lines[3][..lines[3].len() / 2]).expect("written");
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["torn_lines"], 1);
    assert_eq!(status["done"], 48);
    let merged = vkperft(&["work", "merge", &plan, "--json"]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stderr, "Ignored journal lines: 1 torn, 0 damaged\n");
    let merged: Value = serde_json::from_str(merged.stdout.trim()).expect("JSON");
    assert_eq!(big(&merged["nodes"]), 97_862);
    assert_eq!(
        (&merged["torn_lines"], &merged["damaged_lines"]),
        (&1.into(), &0.into())
    );

    // A changed digit in a complete line: merge refuses the plan and names the line; with
    // --ignore-damaged it goes on without it, so its unit has no result.
    let path = &std::fs::read_dir(&journal_dir)
        .expect("journal")
        .map(|e| e.expect("entry").path())
        .find(|p| p != &torn)
        .expect("the run's journal");
    let text = std::fs::read_to_string(path).expect("journal");
    let damaged_unit = unit_of(&lines[5]);
    let damaged = lines[5].replace("\"seconds\":", "\"seconds\":1");
    std::fs::write(path, text.replace(&lines[5], &damaged)).expect("written");
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["damaged_lines"], 1);
    assert_eq!(status["done"], 47);
    let message = refused(&["work", "merge", &plan], 2, "1 damaged journal line(s)");
    assert!(
        message.contains(&format!("{}:6", path.display())),
        "{message}"
    );
    let message = refused(
        &["work", "merge", &plan, "--ignore-damaged"],
        4,
        "1 of 48 units have no result",
    );
    assert!(
        message.contains(&format!("units {damaged_unit};"))
            && message.contains("warning: Ignored journal lines: 1 torn, 1 damaged"),
        "{message}"
    );
    std::fs::write(path, &text).expect("restored");

    // Another result for unit 0 with a different count.
    let seal = PlanFolder::open(Path::new(&plan)).expect("the plan").seal;
    let record = JournalRecord::parse(&lines[0]).expect("a record");
    let wrong = JournalRecord {
        nodes: record.nodes + 1,
        method: Method {
            seed: 1,
            ..record.method
        },
        ..record.clone()
    };
    assert_eq!(wrong.plan, seal);
    std::fs::write(journal_dir.join("journal-8-other.jsonl"), wrong.to_line()).expect("written");
    let stderr = refused(
        &["work", "merge", &plan],
        3,
        "1 units have results that disagree",
    );
    assert!(
        stderr.contains(&format!("unit {}:", wrong.unit)),
        "{stderr}"
    );
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["conflicts"], 1);

    // A result for a unit the plan does not have.
    let stranger = JournalRecord {
        unit: 48,
        ..wrong.clone()
    };
    std::fs::write(
        journal_dir.join("journal-8-other.jsonl"),
        stranger.to_line(),
    )
    .expect("written");
    for command in ["status", "merge"] {
        refused(
            &["work", command, &plan],
            2,
            "a result for unit 48, but the plan has units 0..48",
        );
    }

    // A result of another plan: the same unit and count, but another plan's seal.
    let other_plan = folder.plan("other");
    split(&other_plan, KIWIPETE, 2, 1, &[]);
    let foreign = JournalRecord {
        plan: PlanFolder::open(Path::new(&other_plan))
            .expect("the other plan")
            .seal,
        ..record.clone()
    };
    std::fs::write(journal_dir.join("journal-8-other.jsonl"), foreign.to_line()).expect("written");
    for command in ["status", "merge"] {
        refused(
            &["work", command, &plan],
            2,
            "a result for unit 0 of another plan",
        );
    }
    let twin = folder.plan("twin");
    split(&twin, KIWIPETE, 3, 1, &[]);
    refused(
        &["work", "compare", &twin, &plan],
        2,
        "journal-8-other.jsonl:1: a result for unit 0 of another plan",
    );

    // A line of record format 1 (before records carried their plan's seal) is refused.
    let body = format!(
        r#"{{"unit":0,"nodes":"{}","paths":"1","mode":"fast/12","seed":"0x1","backend":"cpu","device":"1 thread(s)","seconds":0.1"#,
        record.nodes
    );
    let old = format!(
        "{body},\"crc32\":\"{:08x}\"}}\n",
        crc32fast::hash(body.as_bytes())
    );
    std::fs::write(journal_dir.join("journal-8-other.jsonl"), old).expect("written");
    refused(
        &["work", "merge", &plan],
        2,
        "a result written by an earlier vkperft (record format 1",
    );
    std::fs::remove_file(journal_dir.join("journal-8-other.jsonl")).expect("removed");
    ok(&["work", "merge", &plan]);

    // A crafted count that overflows the total names its unit.
    let last = lines.iter().find(|l| unit_of(l) == 47).expect("unit 47");
    let huge = JournalRecord {
        nodes: u128::MAX,
        ..JournalRecord::parse(last).expect("a record")
    };
    std::fs::write(path, text.replace(last.as_str(), huge.to_line().trim_end())).expect("written");
    for command in ["status", "merge"] {
        refused(
            &["work", command, &plan],
            2,
            "unit 47: paths x nodes overflows 128 bits",
        );
    }
}

/// Damaged or foreign plans and bad requests: clear errors, exit 2.
#[test]
fn bad_plans_and_requests_are_refused() {
    let folder = Folder::new("bad");
    let plan = folder.plan("p");
    refused(
        &[
            "work",
            "split",
            "--depth",
            "3",
            "--split-ply",
            "3",
            "--out",
            &plan,
        ],
        2,
        "--split-ply 3 must be at least 1 and less than --depth 3",
    );
    refused(
        &[
            "work",
            "split",
            "--depth",
            "3",
            "--split-ply",
            "0",
            "--out",
            &plan,
        ],
        2,
        "--split-ply 0",
    );
    refused(
        &[
            "work",
            "split",
            "--depth",
            "3",
            "--split-ply",
            "1",
            "--shards",
            "0",
            "--out",
            &plan,
        ],
        2,
        "--shards",
    );
    split(&plan, KIWIPETE, 3, 1, &["--shards", "2"]);
    refused(
        &[
            "work",
            "split",
            "--depth",
            "3",
            "--split-ply",
            "1",
            "--out",
            &plan,
        ],
        2,
        "already exists",
    );
    refused(
        &["work", "run", &folder.plan("none")],
        2,
        "not a plan folder",
    );
    refused(
        &["work", "run", &plan, "--shard", "2"],
        2,
        "shard 2 does not exist",
    );
    refused(
        &["work", "run", &plan, "--shards", "1..0"],
        2,
        "not a shard range",
    );

    let shard = Path::new(&plan).join("shard-00001.jsonl");
    let original = std::fs::read_to_string(&shard).expect("shard");
    std::fs::write(&shard, original.replacen("\"depth\":2", "\"depth\":3", 1)).expect("written");
    refused(
        &["work", "run", &plan, "--shard", "1"],
        2,
        "checksum failed",
    );
    refused(&["work", "merge", &plan], 2, "checksum failed");
    std::fs::write(&shard, &original).expect("restored");

    let manifest_path = Path::new(&plan).join("manifest.json");
    let text = std::fs::read_to_string(&manifest_path).expect("manifest");
    std::fs::write(&manifest_path, text.replace("\"depth\":3", "\"depth\":4")).expect("written");
    refused(&["work", "status", &plan], 2, "checksum failed");
    std::fs::write(&manifest_path, text.replace("\"format\":1", "\"format\":2")).expect("written");
    refused(
        &["work", "merge", &plan],
        2,
        "a plan of format 2, from another version",
    );
    std::fs::write(&manifest_path, &text).expect("restored");
    ok(&["work", "run", &plan, "--shard", "0", "--backend", "cpu"]);
    refused(&["work", "merge", &plan], 4, "in shards 1)");
}

/// Two computations of one plan: a verified table and one narrowed to an 8-bit verifier
/// differ on some units, which `compare` lists (exit 3); a third run without a table agrees
/// with the verified one.
#[test]
fn compare_catches_a_narrowed_fast_table() {
    let folder = Folder::new("compare");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let plans: Vec<String> = ["verified", "narrowed", "off"]
        .iter()
        .map(|name| folder.plan(name))
        .collect();
    for plan in &plans {
        split(plan, start, 6, 2, &[]);
    }
    let common = ["--backend", "cpu", "--threads", "1", "--tt-mb", "1"];
    ok(&[&["work", "run", &plans[0], "--tt", "verified"], &common[..]].concat());
    let narrowed = ["--tt", "fast", "--verifier-bits", "8"];
    ok(&[&["work", "run", &plans[1]], &narrowed[..], &common[..]].concat());
    ok(&[&["work", "run", &plans[2], "--tt", "off"], &common[..]].concat());

    let verified = json(&["work", "merge", &plans[0], "--json"]);
    assert_eq!(big(&verified["nodes"]), 119_060_324);
    let fast = json(&["work", "merge", &plans[1], "--json"]);
    assert_ne!(big(&fast["nodes"]), 119_060_324);
    assert_eq!(fast["modes"], serde_json::json!(["fast/8"]));

    let run = vkperft(&["work", "compare", &plans[0], &plans[1]]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with("400 units compared\n"),
        "{}",
        run.stdout
    );
    let listed = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("unit "))
        .count();
    assert!(listed > 0, "{}", run.stdout);
    assert!(
        run.stderr.contains(&format!("{listed} units differ")),
        "{}",
        run.stderr
    );

    let agree = ok(&["work", "compare", &plans[0], &plans[2]]);
    assert_eq!(agree.stdout, "400 units compared\nall units agree\n");
    let other = folder.plan("other");
    split(&other, start, 5, 2, &[]);
    refused(
        &["work", "compare", &plans[0], &other],
        2,
        "the depths differ",
    );
}

/// OEIS A083276 to ply 6, with a budget small enough to spill sorted runs to disk.
#[test]
fn unique_positions_to_ply_6() {
    let value = json(&["unique", "--depth", "6", "--json", "--mem-mb", "64"]);
    let unique: Vec<&str> = value["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["unique"].as_str().expect("a string"))
        .collect();
    assert_eq!(unique, ["20", "400", "5362", "72078", "822518", "9417681"]);
    assert_eq!(value["plies"][5]["paths"], "119060324");
    assert_eq!(value["plies"][0]["ply"], 1);
    refused(&["unique", "--depth", "0"], 2, "at least 1");
}

/// Ply 7: 96,400,068 positions (minutes, and about a gigabyte of memory and 15 GB of disk).
#[test]
#[ignore]
fn unique_positions_to_ply_7() {
    let value = json(&["unique", "--depth", "7", "--json"]);
    assert_eq!(value["plies"][6]["unique"], "96400068");
    assert_eq!(value["plies"][6]["paths"], "3195901860");
}

/// `work run --shard-from-env`: the shard a scheduler puts in a variable, checked; two
/// processes on one shard at once each journal a file of their own and merge counts each
/// unit once; a task started again on a finished shard computes nothing.
#[test]
fn scheduler_tasks_are_idempotent() {
    let folder = Folder::new("tasks");
    let plan = folder.plan("p");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    split(&plan, start, 6, 2, &["--shards", "2"]);
    let args = [
        "work",
        "run",
        &plan,
        "--shard-from-env",
        "TASK_INDEX",
        "--backend",
        "cpu",
        "--threads",
        "1",
        "--tt",
        "off",
    ];
    let unset = vkperft(&args);
    assert_eq!(unset.code, 2, "{}", unset.stderr);
    assert!(
        unset.stderr.contains("TASK_INDEX is not set"),
        "{}",
        unset.stderr
    );
    for (value, message) in [
        ("x", "TASK_INDEX=\"x\" is not a shard number"),
        ("2", "shard 2 does not exist: the plan has shards 0..2"),
    ] {
        let run = run_vkperft(&args, &[("TASK_INDEX", value)]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(message), "{}", run.stderr);
    }
    refused(
        &[&args[..], &["--shard", "0"]].concat(),
        2,
        "cannot be used with",
    );

    let twins: Vec<_> = (0..2)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_vkperft"))
                .args(args)
                .env("TASK_INDEX", "0")
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    for twin in twins {
        let output = twin.wait_with_output().expect("ends");
        assert!(output.status.success());
    }
    let again = run_vkperft(&args, &[("TASK_INDEX", "0")]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .starts_with("0 units computed, 200 already journaled"),
        "{}",
        again.stdout
    );
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["shards_complete"], 1);
    assert_eq!(status["done"], 200);
    let other = run_vkperft(&args, &[("TASK_INDEX", "1")]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    let journals = journal_lines(&plan);
    assert_eq!(journals.len(), 3, "a journal per process that computed");
    assert_eq!(journals.concat().len(), 600, "shard 0 twice, shard 1 once");
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["conflicts"], 0);
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(big(&merged["nodes"]), 119_060_324);
    assert_eq!(merged["units"], 400);
}

/// `work slurm` without a cluster: `--dry-run` prints the scripts and writes nothing; a
/// missing or failing sbatch is an error that says so (exit 1); a value that would break the
/// script is refused (exit 2); a complete plan submits nothing.
#[test]
fn slurm_dry_runs_and_scheduler_errors() {
    use std::os::unix::fs::PermissionsExt;
    let folder = Folder::new("slurm");
    let plan = folder.plan("p");
    split(&plan, KIWIPETE, 3, 1, &["--shards", "2"]);
    let options = ["--backend", "cpu", "--threads", "2", "--tt-mb", "64"];
    let options = [&options[..], &["--max-parallel", "4"]].concat();
    let dry = ok(&[&["work", "slurm", &plan, "--dry-run"][..], &options].concat());
    let canonical = std::fs::canonicalize(&plan).expect("the plan");
    let plan_dir = canonical.display();
    let program = std::fs::canonicalize(env!("CARGO_BIN_EXE_vkperft")).expect("the binary");
    for expected in [
        "2 shards to submit: 0-1 (of 2)\n".to_string(),
        "#SBATCH --array=0-1%4\n".to_string(),
        format!("#SBATCH --output={plan_dir}/slurm/%A_%a.log\n"),
        "#SBATCH --cpus-per-task=2\n".to_string(),
        format!(
            "exec {} work run {plan_dir} --shard-from-env SLURM_ARRAY_TASK_ID --backend cpu --tt fast --submissions auto --tt-split distinct --verifier-bits 64 --zobrist-seed 0x766b7065726674 --threads 2 --tt-mb 64\n",
            program.display()
        ),
        format!("#SBATCH --output={plan_dir}/slurm/merge-%j.log\n"),
        format!("work merge {plan_dir} --divide\n"),
        format!("$ sbatch --parsable --dependency=afterany:<array job> {plan_dir}/slurm/merge.sbatch\n"),
    ] {
        assert!(dry.stdout.contains(&expected), "{expected}\nin\n{}", dry.stdout);
    }
    assert!(
        dry.stdout.starts_with("2 shards to submit"),
        "{}",
        dry.stdout
    );
    assert!(!Path::new(&plan).join("slurm").exists());

    let nowhere = run_vkperft(&["work", "slurm", &plan], &[("PATH", "/nonexistent")]);
    assert_eq!(nowhere.code, 1, "{}", nowhere.stderr);
    assert!(
        nowhere.stderr.contains("sbatch not found"),
        "{}",
        nowhere.stderr
    );

    let bin = folder.0.join("bin");
    std::fs::create_dir_all(&bin).expect("a folder");
    let sbatch = bin.join("sbatch");
    let fake = "#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n";
    std::fs::write(&sbatch, fake).expect("written");
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).expect("mode");
    let bin_path = bin.to_string_lossy();
    let failed = run_vkperft(
        &["work", "slurm", &plan, "--partition", "gpu"],
        &[("PATH", &bin_path)],
    );
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    assert!(
        failed.stderr.contains("`sbatch --parsable ")
            && failed
                .stderr
                .contains("sbatch: error: invalid partition specified: gpu"),
        "{}",
        failed.stderr
    );
    std::fs::write(&sbatch, "#!/bin/sh\necho Submitted\n").expect("written");
    let garbled = run_vkperft(&["work", "slurm", &plan], &[("PATH", &bin_path)]);
    assert_eq!(garbled.code, 1, "{}", garbled.stderr);
    assert!(
        garbled
            .stderr
            .contains("printed \"Submitted\", not a job id"),
        "{}",
        garbled.stderr
    );
    refused(
        &["work", "slurm", &plan, "--poll-seconds", "1"],
        2,
        "--wait",
    );
    refused(
        &[
            "work",
            "slurm",
            &plan,
            "--partition",
            "gpu\necho",
            "--dry-run",
        ],
        2,
        "cannot hold a line break",
    );

    ok(&["work", "run", &plan, "--backend", "cpu", "--threads", "1"]);
    let done = ok(&["work", "slurm", &plan, "--dry-run"]);
    assert_eq!(
        done.stdout,
        format!("0 shards to submit: all 2 shards of {plan_dir} are complete\n")
    );
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A fast result with an 8-bit verifier spares no exact run: `--require exact` fails (exit 6)
/// naming the units; a full-width fast run and then a `verified` run compute every unit again,
/// keeping the earlier results; then the plan is exact and no run computes anything more.
/// (Units of depth 1 never reach the table, so the narrowed results are right.)
#[test]
fn exact_runs_recompute_fast_units_and_require_exact_follows() {
    let folder = Folder::new("trust-exact");
    let plan = folder.plan("p");
    split(&plan, START, 3, 2, &[]);
    let common = ["--backend", "cpu", "--threads", "1", "--tt-mb", "1"];
    let run = |extra: &[&str]| ok(&[&["work", "run", &plan][..], extra, &common].concat());
    run(&["--tt", "fast", "--verifier-bits", "8"]);
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(big(&merged["nodes"]), 8_902);
    assert_eq!(merged["trust"], "one seed, 8-bit verifier");
    let short = refused(
        &["work", "merge", &plan, "--require", "exact"],
        6,
        "short of --require exact: 400 of 400 units fall short (units 0, 1, 2,",
    );
    assert!(short.contains("and 380 more"), "{short}");
    ok(&["work", "merge", &plan, "--require", "any"]);

    let wider = run(&["--tt", "fast"]);
    assert!(
        wider
            .stdout
            .starts_with("400 units computed (400 again: their results were neither exact nor fast with seed 0x766b7065726674 at 64 bits or more), 0 already journaled"),
        "{}",
        wider.stdout
    );
    refused(
        &["work", "merge", &plan, "--require", "exact"],
        6,
        "400 of 400 units",
    );
    let exact = run(&["--tt", "verified"]);
    assert!(
        exact
            .stdout
            .starts_with("400 units computed (400 again: their results were not exact), 0 already"),
        "{}",
        exact.stdout
    );
    assert_eq!(
        journal_lines(&plan).concat().len(),
        1_200,
        "every result kept"
    );
    let merged = json(&["work", "merge", &plan, "--json", "--require", "exact"]);
    assert_eq!(big(&merged["nodes"]), 8_902);
    assert_eq!(merged["trust"], "exact");
    assert_eq!(
        merged["modes"],
        serde_json::json!(["fast", "fast/8", "verified"])
    );
    for extra in [
        &["--tt", "certify"][..],
        &["--tt", "fast", "--zobrist-seed", "7"],
    ] {
        let again = run(extra);
        assert!(
            again
                .stdout
                .starts_with("0 units computed, 400 already journaled"),
            "{extra:?}: {}",
            again.stdout
        );
    }
}

/// Perft 5 split at ply 2, computed in `fast` with seed A and again with seed B: `--require
/// independent` fails after the first run (exit 6) and passes after the second, whose run
/// skips nothing; the certificate holds and a sample recomputes; an edited total, an edited
/// journal, and a unit whose two results disagree are each caught, naming what differs.
#[test]
fn two_seeds_make_an_independent_total_with_a_certificate() {
    let folder = Folder::new("trust-independent");
    let plan = folder.plan("p");
    split(&plan, START, 5, 2, &[]);
    let common = ["--backend", "cpu", "--threads", "1", "--tt-mb", "4"];
    let run = |seed: &str| {
        ok(&[
            &["work", "run", &plan, "--tt", "fast", "--zobrist-seed", seed][..],
            &common,
        ]
        .concat())
    };
    run("0xa");
    refused(
        &["work", "merge", &plan, "--require", "independent"],
        6,
        "the total's trust is one seed, short of --require independent: 400 of 400 units",
    );
    assert!(run("0xa")
        .stdout
        .starts_with("0 units computed, 400 already journaled"));
    assert!(run("0xb")
        .stdout
        .starts_with("400 units computed (400 again"));
    let certificate = folder.0.join("certificate.json");
    let certificate_path = certificate.to_string_lossy().into_owned();
    let merged = ok(&[
        "work",
        "merge",
        &plan,
        "--require",
        "independent",
        "--certificate",
        &certificate_path,
    ]);
    assert!(
        merged.stdout.starts_with("Nodes searched: 4865609\n"),
        "{}",
        merged.stdout
    );
    assert!(
        merged
            .stdout
            .contains("Trust: independent (units: 400 independent)\n"),
        "{}",
        merged.stdout
    );
    assert!(
        merged
            .stdout
            .contains("Risk of the count: expected false hits 0.000e0, P(any) 0.000e0\n"),
        "{}",
        merged.stdout
    );
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&certificate).expect("written"))
            .expect("JSON");
    assert_eq!(document["total"], "4865609");
    assert_eq!(document["depth"], 5);
    assert_eq!(document["position"], START);
    assert_eq!(document["trust"]["level"], "independent");
    assert_eq!(
        document["plan"]["seal"],
        PlanFolder::open(Path::new(&plan))
            .expect("plan")
            .seal
            .to_string()
    );
    assert_eq!(document["agreement"]["units_with_independent_seeds"], 400);
    assert_eq!(document["journals"].as_array().map(Vec::len), Some(2));
    assert_eq!(document["computations"].as_array().map(Vec::len), Some(2));
    assert_eq!(document["computations"][1]["seed"], "0xb");
    assert_eq!(document["divide"].as_array().map(Vec::len), Some(20));
    assert_eq!(
        document["tool"]["version"],
        env!("CARGO_PKG_VERSION"),
        "{document}"
    );

    let verify = |extra: &[&str]| {
        vkperft(
            &[
                &["work", "verify-certificate", &certificate_path][..],
                extra,
                &["--backend", "cpu", "--threads", "1", "--tt-mb", "4"],
            ]
            .concat(),
        )
    };
    let checked = verify(&["--sample", "5", "--seed", "42"]);
    assert_eq!(checked.code, 0, "{}{}", checked.stdout, checked.stderr);
    assert!(
        checked
            .stdout
            .contains("Recomputing 20 of 400 units (--seed 0x2a draws this sample again)"),
        "{}",
        checked.stdout
    );
    assert!(
        checked
            .stdout
            .ends_with("All 20 recomputed units agree with the journals\n"),
        "{}",
        checked.stdout
    );
    let default_sample = verify(&[]);
    assert_eq!(default_sample.code, 0, "{}", default_sample.stderr);
    assert!(
        default_sample.stdout.contains("Recomputing 4 of 400 units"),
        "{}",
        default_sample.stdout
    );

    // An edited total.
    let text = std::fs::read_to_string(&certificate).expect("certificate");
    std::fs::write(&certificate, text.replace("\"4865609\"", "\"4865610\"")).expect("written");
    let edited = verify(&["--sample", "5"]);
    assert_eq!(edited.code, 3, "{}", edited.stderr);
    assert!(
        edited
            .stderr
            .contains("the certificate's total is 4865610, the journals sum to 4865609"),
        "{}",
        edited.stderr
    );
    std::fs::write(&certificate, &text).expect("restored");

    // One unit's record edited to another count (and sealed again): the journal's digest no
    // longer matches, and the merge names the unit whose results now disagree.
    let journals = journal_lines(&plan);
    let edited_line = &journals[1][17];
    let record = JournalRecord::parse(edited_line).expect("a record");
    let forged = JournalRecord {
        nodes: record.nodes + 1,
        ..record.clone()
    };
    let dir = Path::new(&plan).join("journal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("journal")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let original = std::fs::read_to_string(&files[1]).expect("journal");
    std::fs::write(
        &files[1],
        original.replace(edited_line.as_str(), forged.to_line().trim_end()),
    )
    .expect("written");
    let stderr = refused(
        &["work", "merge", &plan, "--require", "independent"],
        3,
        "1 units have results that disagree",
    );
    assert!(
        stderr.contains(&format!(
            "unit {}: {} vs {}",
            record.unit,
            record.nodes,
            record.nodes + 1
        )),
        "{stderr}"
    );
    let forged_journal = verify(&["--sample", "5"]);
    assert_eq!(forged_journal.code, 3, "{}", forged_journal.stderr);
    assert!(
        forged_journal.stderr.contains("SHA-256"),
        "{}",
        forged_journal.stderr
    );

    // Both results of that unit forged alike: the merge agrees, the certificate of it holds,
    // and only recomputing the unit finds it.
    let first = std::fs::read_to_string(&files[0]).expect("journal");
    let twin_line = journals[0]
        .iter()
        .find(|l| unit_of(l) == record.unit)
        .expect("the unit's first result");
    let twin = JournalRecord {
        nodes: record.nodes + 1,
        ..JournalRecord::parse(twin_line).expect("a record")
    };
    std::fs::write(
        &files[0],
        first.replace(twin_line.as_str(), twin.to_line().trim_end()),
    )
    .expect("written");
    ok(&[
        "work",
        "merge",
        &plan,
        "--require",
        "independent",
        "--certificate",
        &certificate_path,
    ]);
    let caught = verify(&["--sample", "100"]);
    assert_eq!(caught.code, 3, "{}", caught.stderr);
    assert!(
        caught.stderr.contains(&format!(
            "1 of 400 recomputed units differ from the journals:\n  unit {}: journal {}, recomputed {}",
            record.unit,
            record.nodes + 1,
            record.nodes
        )),
        "{}",
        caught.stderr
    );
}
