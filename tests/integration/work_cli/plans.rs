//! Plans from split to merge: exact totals, deterministic splits, a run killed and resumed,
//! bad plans and requests, and unique positions.

use super::*;

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

/// OEIS A083276 to ply 6 with `--mem-mb 4` under a limit of 256 open files: the budget is
/// raised, with a note, to the smallest worth running (the process, its buffers and an 8 MiB
/// set: dozens of passes rather than thousands), and the peak resident memory stays under
/// 64 MB. An external sort that merged every run at once failed here with "Too many open
/// files" and took 264 MB. Python's `resource` sets the limit and reads the peak of the one
/// child it waits for.
#[test]
fn unique_positions_to_ply_6_within_memory_and_open_files() {
    const MEASURE: &str = "import resource, subprocess, sys
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(run.stderr)
print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(run.stdout, end='')
";
    let folder = Folder::new("unique-bounded");
    let tmp = folder.plan("tmp");
    std::fs::create_dir_all(&tmp).expect("a folder");
    let python = std::env::var("VKPERFT_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let output = Command::new(python)
        .args(["-c", MEASURE, env!("CARGO_BIN_EXE_vkperft")])
        .args([
            "unique",
            "--depth",
            "6",
            "--json",
            "--mem-mb",
            "4",
            "--tmp-dir",
            &tmp,
        ])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let (status, json) = stdout.split_once('\n').expect("two lines");
    let (code, peak_kib) = status.split_once(' ').expect("code and peak");
    assert_eq!(code, "0", "{stderr}");
    let value: Value = serde_json::from_str(json.trim()).expect("JSON");
    let unique: Vec<&str> = value["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["unique"].as_str().expect("a string"))
        .collect();
    assert_eq!(unique, ["20", "400", "5362", "72078", "822518", "9417681"]);
    assert_eq!(value["plies"][5]["paths"], "119060324");
    assert_eq!(value["plies"][0]["ply"], 1);
    assert!(
        stderr.contains("note: --mem-mb 4 is below the smallest budget worth running"),
        "{stderr}"
    );
    let peak_kib: u64 = peak_kib.parse().expect("KiB");
    assert!(
        peak_kib * 1024 < 64_000_000,
        "peak resident memory {peak_kib} KiB"
    );
    assert_eq!(
        std::fs::read_dir(&tmp).map(Iterator::count).ok(),
        Some(0),
        "the scratch folder is removed"
    );
    refused(&["unique", "--depth", "0"], 2, "at least 1");
}

/// Ply 7: 96,400,068 positions (minutes, and 4 GiB of memory and 2 GB of disk).
#[test]
#[ignore]
fn unique_positions_to_ply_7() {
    let value = json(&["unique", "--depth", "7", "--json"]);
    assert_eq!(value["plies"][6]["unique"], "96400068");
    assert_eq!(value["plies"][6]["paths"], "3195901860");
}

/// A plan run with `--stats` merges to the statistics of one perft; a unit run without them
/// leaves the total without statistics.
#[test]
fn a_plan_with_stats_merges_to_the_statistics_of_one_run() {
    let folder = Folder::new("stats");
    let (all, mixed) = (folder.plan("all"), folder.plan("mixed"));
    for plan in [&all, &mixed] {
        split(plan, KIWIPETE, 4, 2, &["--shards", "2"]);
    }
    let run = |plan: &str, extra: &[&str]| {
        let args = [
            "work",
            "run",
            plan,
            "--backend",
            "cpu",
            "--threads",
            "2",
            "--tt-mb",
            "16",
        ];
        ok(&[&args[..], extra].concat())
    };
    run(&all, &["--stats"]);
    let journal = journal_lines(&all).concat().join("\n");
    assert!(journal.contains(r#""stats":{"captures":"#), "{journal}");
    let merged = json(&["work", "merge", &all, "--json"]);
    let perft = json(&[
        "perft",
        "--fen",
        KIWIPETE,
        "--depth",
        "4",
        "--backend",
        "cpu",
        "--stats",
        "--json",
    ]);
    assert_eq!(big(&merged["nodes"]), 4_085_603);
    assert_eq!(merged["stats"], perft["stats"]);
    // The Grand Chess Tree's Kiwipete depth 4 and the wiki's double checks from them.
    for (key, value) in [
        ("direct_checks", "25432"),
        ("single_discovered_checks", "42"),
        ("direct_discovered_checks", "6"),
        ("total_checks", "25480"),
        ("direct_mates", "43"),
        ("total_mates", "43"),
        ("double_checks", "6"),
    ] {
        assert_eq!(merged["stats"][key], value, "{key}");
    }
    let text = ok(&["work", "merge", &all]).stdout;
    assert!(text.contains("direct_discovered_mates"), "{text}");
    let certificate = folder.0.join("stats-certificate.json");
    let certificate = certificate.to_string_lossy().into_owned();
    ok(&["work", "merge", &all, "--certificate", &certificate]);
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&certificate).expect("written"))
            .expect("JSON");
    assert_eq!(document["stats"], perft["stats"]);
    let verify = || {
        vkperft(&[
            "work",
            "verify-certificate",
            &certificate,
            "--sample",
            "3",
            "--backend",
            "cpu",
            "--threads",
            "1",
            "--tt-mb",
            "4",
        ])
    };
    let checked = verify();
    assert_eq!(checked.code, 0, "{}{}", checked.stdout, checked.stderr);
    assert!(
        checked.stdout.contains("with their move-type statistics"),
        "{}",
        checked.stdout
    );
    let mut edited = document.clone();
    edited["stats"]["direct_mates"] = "44".into();
    std::fs::write(&certificate, edited.to_string()).expect("edited");
    let refused = verify();
    assert_eq!(refused.code, 3, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("move-type statistics are not what the journals sum to"),
        "{}",
        refused.stderr
    );

    // A journal whose statistics were altered and sealed again, certified anew: the
    // certificate's own sums hold, and recomputing every unit finds the altered one.
    let journal_dir = std::path::Path::new(&all).join("journal");
    let file = std::fs::read_dir(&journal_dir)
        .expect("a journal folder")
        .map(|entry| entry.expect("an entry").path())
        .next()
        .expect("a journal file");
    let text = std::fs::read_to_string(&file).expect("a journal");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut record: Value = serde_json::from_str(&lines[0]).expect("a journal line");
    let checks = big(&record["stats"]["direct_checks"]);
    record["stats"]["direct_checks"] = (checks + 1).to_string().into();
    let body = record.as_object_mut().expect("an object");
    body.remove("crc32");
    let body = serde_json::to_string(&record).expect("JSON");
    let body = body.strip_suffix('}').expect("an object");
    lines[0] = format!(
        "{body},\"crc32\":\"{:08x}\"}}",
        crc32fast::hash(body.as_bytes())
    );
    std::fs::write(&file, lines.join("\n") + "\n").expect("written");
    ok(&["work", "merge", &all, "--certificate", &certificate]);
    let all_units = vkperft(&[
        "work",
        "verify-certificate",
        &certificate,
        "--sample",
        "100",
        "--backend",
        "cpu",
        "--tt-mb",
        "4",
    ]);
    assert_eq!(all_units.code, 3, "{}", all_units.stderr);
    assert!(
        all_units.stderr.contains(&format!(
            "direct_checks: journal {}, recomputed {checks}",
            checks + 1
        )),
        "{}",
        all_units.stderr
    );

    run(&mixed, &["--stats", "--shard", "0"]);
    run(&mixed, &["--shard", "1"]);
    let merged = json(&["work", "merge", &mixed, "--json"]);
    assert_eq!(big(&merged["nodes"]), 4_085_603);
    assert!(merged.get("stats").is_none(), "shard 1 counted none");
}

/// `merge --certificate` writes beside the target and renames: a second merge replaces the
/// first certificate whole, and a write that cannot land (here the target is a folder with a
/// file in it, so the rename fails after the bytes were written) is an error that leaves the
/// target as it was and no staged file behind.
#[test]
fn a_certificate_is_written_aside_and_renamed() {
    let folder = Folder::new("certificate-aside");
    let plan = folder.plan("plan");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    split(&plan, start, 3, 2, &[]);
    ok(&["work", "run", &plan, "--backend", "cpu", "--tt", "off"]);
    let staged_files = || -> Vec<String> {
        std::fs::read_dir(&folder.0)
            .expect("the folder")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| name.ends_with(".tmp"))
            .collect()
    };
    let certificate = folder.plan("certificate.json");
    for _ in 0..2 {
        ok(&["work", "merge", &plan, "--certificate", &certificate]);
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(&certificate).expect("written"))
                .expect("a whole certificate");
        assert_eq!(big(&document["total"]), 8_902, "{document}");
        assert_eq!(staged_files(), Vec::<String>::new());
    }
    let occupied = folder.0.join("occupied");
    std::fs::create_dir(&occupied).expect("a folder");
    std::fs::write(occupied.join("keep"), "kept").expect("a file");
    let occupied = occupied.to_string_lossy().into_owned();
    let run = vkperft(&["work", "merge", &plan, "--certificate", &occupied]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(run.stderr.contains(&occupied), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(folder.0.join("occupied/keep")).expect("kept"),
        "kept"
    );
    assert_eq!(staged_files(), Vec::<String>::new());
}
