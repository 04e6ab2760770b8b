//! Plans of unique positions (`work split --unique`): the partitions of a ply run over shards,
//! killed with SIGKILL twice and resumed, merge to `unique`'s count with a certificate; bad
//! requests and damaged plans are refused.

use super::*;
use vkperft::work::UniqueRecord;

/// Starts `work run` on every shard of `plan` and kills it with SIGKILL once the journals hold
/// `lines` lines or more; returns how many they hold then.
fn run_and_kill(plan: &str, lines: usize) -> usize {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args(["work", "run", plan, "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    let count = || journal_lines(plan).concat().len();
    while count() < lines {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    count()
}

/// Ply 6 of the start position in 16 partitions over 4 shards: a run killed twice, then the
/// four shards at once, merge to the count `unique` gives (A083276's 9,417,681) with paths
/// perft(6); no partition is counted twice and the certificate says so.
#[test]
fn a_unique_plan_killed_twice_resumes_to_uniques_count_with_a_certificate() {
    let folder = Folder::new("unique-plan");
    let plan = folder.plan("u6");
    let split = ok(&[
        "work",
        "split",
        "--unique",
        "--depth",
        "6",
        "--shards",
        "4",
        "--partitions",
        "16",
        "--out",
        &plan,
    ]);
    assert!(
        split
            .stdout
            .contains("the unique positions at ply 6 in 16 units"),
        "{}",
        split.stdout
    );
    let manifest = manifest(&plan);
    assert_eq!(manifest["kind"], "unique");
    assert_eq!(manifest["partitions"], 16);
    assert_eq!(manifest["plies"][4]["unique"], 822_518);

    let first = run_and_kill(&plan, 3);
    assert!(first < 16, "{first} units before the first kill");
    let second = run_and_kill(&plan, first + 2);
    assert!(second < 16, "{second} units before the second kill");
    refused(&["work", "merge", &plan], 4, "units have no result");
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["done"].as_u64(), Some(second as u64));

    // The four shards at once, as four scheduler tasks.
    let tasks: Vec<_> = (0..4)
        .map(|shard| {
            Command::new(env!("CARGO_BIN_EXE_vkperft"))
                .args(["work", "run", &plan, "--threads", "1"])
                .args(["--shard", &shard.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    for mut task in tasks {
        assert!(task.wait().expect("reaped").success());
    }
    let units: Vec<u64> = journal_lines(&plan)
        .concat()
        .iter()
        .map(|l| unit_of(l))
        .collect();
    let distinct: std::collections::HashSet<u64> = units.iter().copied().collect();
    assert_eq!((units.len(), distinct.len()), (16, 16), "{units:?}");

    let certificate = folder.plan("u6.certificate.json");
    let merged = json(&[
        "work",
        "merge",
        &plan,
        "--json",
        "--certificate",
        &certificate,
    ]);
    let unique = json(&["unique", "--depth", "6", "--json"]);
    assert_eq!(merged["unique"], unique["plies"][5]["unique"]);
    assert_eq!(big(&merged["unique"]), 9_417_681);
    assert_eq!(big(&merged["paths"]), 119_060_324);
    assert_eq!(merged["paths_checked"], true);
    assert_eq!(merged["units"], 16);
    let text = std::fs::read_to_string(&certificate).expect("a certificate");
    let document: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        document["certificate"],
        "vkperft unique-positions plan certificate"
    );
    assert_eq!(document["unique"], "9417681");
    assert_eq!(document["paths_check"]["holds"], true);
    assert_eq!(document["trust"]["level"], "exact");
    assert_eq!(document["agreement"]["units_computed_more_than_once"], 0);
    assert_eq!(
        document["journals"].as_array().map(Vec::len),
        Some(journal_lines(&plan).len())
    );
    let text = ok(&["work", "merge", &plan]).stdout;
    assert!(
        text.starts_with("Unique positions at ply 6: 9417681\nPaths: 119060324 (perft(6); checked"),
        "{text}"
    );
}

/// Ply counts of plans from other roots, Chess960 among them, equal `unique`'s.
#[test]
fn unique_plans_from_other_roots_count_as_unique_does() {
    let folder = Folder::new("unique-roots");
    let roots = [
        KIWIPETE,
        POSITION_3,
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    for (index, fen) in roots.into_iter().enumerate() {
        let plan = folder.plan(&format!("root{index}"));
        ok(&[
            "work",
            "split",
            "--unique",
            "--fen",
            fen,
            "--depth",
            "4",
            "--shards",
            "3",
            "--partitions",
            "5",
            "--out",
            &plan,
        ]);
        ok(&["work", "run", &plan, "--threads", "2"]);
        let merged = json(&["work", "merge", &plan, "--json"]);
        let unique = json(&["unique", "--fen", fen, "--depth", "4", "--json"]);
        assert_eq!(
            merged["plies"],
            {
                let plies: Vec<Value> = unique["plies"]
                .as_array()
                .expect("plies")
                .iter()
                .map(|p| serde_json::json!({"ply": p["ply"], "unique": p["unique"], "paths": p["paths"]}))
                .collect();
                Value::Array(plies)
            },
            "{fen}"
        );
    }
}

/// Rewrites every journal record of the unique plan `plan` with `edit`, each sealed again (a
/// CRC-32 is anyone's to recompute).
fn forge_unique_records(plan: &str, edit: impl Fn(&mut UniqueRecord)) {
    for entry in std::fs::read_dir(Path::new(plan).join("journal")).expect("journals") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a journal");
        let mut forged = String::new();
        for line in text.lines() {
            let mut record = UniqueRecord::parse(line).expect("a record");
            edit(&mut record);
            forged += &record.to_line();
        }
        std::fs::write(&path, forged).expect("written");
    }
}

/// `work verify-certificate` of a unique plan: the journals as certified, perft(4) counted
/// again and every unit recounted give trust exact, and a sample short of every unit does not
/// meet `--require exact` (exit 6). Records whose counts two units swapped, sealed again, pass
/// the merge and its paths check (the sums are unchanged) but not the recount (exit 3, naming
/// both units); a journal changed after the certificate fails its SHA-256 (exit 3).
#[test]
fn a_unique_certificate_is_verified_by_recounting_its_units() {
    let folder = Folder::new("unique-verify");
    let plan = folder.plan("u4");
    let certificate = folder.plan("u4.certificate.json");
    ok(&split_unique(
        &plan,
        &["--depth", "4", "--shards", "2", "--partitions", "4"],
    ));
    ok(&["work", "run", &plan, "--threads", "1"]);
    ok(&["work", "merge", &plan, "--certificate", &certificate]);
    let verify = |extra: &[&'static str]| {
        let mut args = vec!["work", "verify-certificate", certificate.as_str()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--backend", "cpu", "--threads", "1"]);
        args
    };

    let all = ok(&verify(&["--sample", "100", "--require", "exact"])).stdout;
    for needle in [
        "Certificate holds: seal ",
        "ply 4: 72078 unique positions, 197281 paths",
        "Paths hold: perft(4) counted again by the perft engine (--tt fast) is 197281",
        "Recounting 4 of 4 units",
        "All 4 recounted units agree with the journals",
        "Trust established: exact",
    ] {
        assert!(all.contains(needle), "{needle}: {all}");
    }
    refused(
        &verify(&["--sample", "1", "--seed", "7", "--require", "exact"]),
        6,
        "3 of 4 units were not recounted",
    );

    let counts: Vec<_> = journal_lines(&plan)
        .concat()
        .iter()
        .map(|line| UniqueRecord::parse(line).expect("a record"))
        .map(|record| (record.unit, record.count))
        .collect();
    let count_of = |unit: u64| counts.iter().find(|(u, _)| *u == unit).expect("a unit").1;
    let (zero, one) = (count_of(0), count_of(1));
    assert_ne!((zero.unique, zero.paths), (one.unique, one.paths));
    forge_unique_records(&plan, |record| {
        let swapped = match record.unit {
            0 => one,
            1 => zero,
            _ => return,
        };
        record.count.unique = swapped.unique;
        record.count.paths = swapped.paths;
    });
    let merged = json(&[
        "work",
        "merge",
        &plan,
        "--json",
        "--certificate",
        &certificate,
    ]);
    assert_eq!(big(&merged["unique"]), 72_078);
    let forged = refused(
        &verify(&["--sample", "100"]),
        3,
        "unit 0: positions: journal",
    );
    assert!(forged.contains("unit 1: positions: journal"), "{forged}");

    let journal = std::fs::read_dir(Path::new(&plan).join("journal"))
        .expect("journals")
        .next()
        .expect("a journal")
        .expect("an entry")
        .path();
    let mut text = std::fs::read_to_string(&journal).expect("a journal");
    text.push_str("{\"torn");
    std::fs::write(&journal, text).expect("written");
    refused(
        &verify(&["--sample", "1"]),
        3,
        "changed since the certificate",
    );
}

/// `work split --unique --out plan` with `extra`.
fn split_unique<'a>(plan: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [&["work", "split", "--unique", "--out", plan][..], extra].concat()
}

/// Bad requests and damaged plans: a clear error and exit 2, never a panic.
#[test]
fn unique_plans_refuse_bad_requests_and_damaged_files() {
    let folder = Folder::new("unique-bad");
    let plan = folder.plan("p");
    refused(
        &split_unique(&plan, &["--depth", "1"]),
        2,
        "--depth 1: a plan of unique positions",
    );
    refused(
        &split_unique(&plan, &["--depth", "3", "--shards", "0"]),
        2,
        "--shards",
    );
    refused(
        &split_unique(&plan, &["--depth", "3", "--partitions", "0"]),
        2,
        "--partitions",
    );
    refused(
        &split_unique(&plan, &["--depth", "3", "--split-ply", "2"]),
        2,
        "--split-ply",
    );
    refused(
        &[
            "work",
            "split",
            "--depth",
            "3",
            "--partitions",
            "2",
            "--out",
            &plan,
        ],
        2,
        "--unique",
    );
    assert!(!Path::new(&plan).exists(), "a refused split writes nothing");

    let floor = folder.plan("floor");
    let small = ok(&split_unique(&floor, &["--depth", "3", "--mem-mb", "1"]));
    assert!(
        small
            .stderr
            .contains("--mem-mb 1 is below the smallest budget"),
        "{}",
        small.stderr
    );
    ok(&split_unique(&plan, &["--depth", "4", "--partitions", "2"]));
    refused(&split_unique(&plan, &["--depth", "4"]), 2, "already exists");
    refused(
        &["work", "compare", &plan, &plan],
        2,
        "a plan of unique positions",
    );
    refused(&["work", "merge", &plan, "--divide"], 2, "--divide");
    refused(
        &["work", "run", &plan, "--shard", "1"],
        2,
        "shard 1 does not exist",
    );

    // A file of the ply before cut short: refused before any unit runs.
    let manifest = manifest(&plan);
    let parent = Path::new(&plan).join(
        manifest["parent_files"][0]["file"]
            .as_str()
            .expect("a file"),
    );
    let bytes = std::fs::read(&parent).expect("the ply before");
    std::fs::write(&parent, &bytes[..bytes.len() / 2]).expect("cut short");
    let stderr = refused(&["work", "run", &plan], 2, "bytes, the manifest says");
    assert!(stderr.contains("ply-03"), "{stderr}");
    assert!(journal_lines(&plan).concat().is_empty());

    // An edited manifest fails its checksum.
    let path = Path::new(&plan).join("manifest.json");
    let text = std::fs::read_to_string(&path).expect("manifest");
    std::fs::write(&path, text.replace("\"depth\":4", "\"depth\":5")).expect("edited");
    refused(&["work", "status", &plan], 2, "checksum failed");
}
