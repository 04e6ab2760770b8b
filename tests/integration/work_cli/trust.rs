//! Trust: exact runs over fast units, `--require`, two seeds and the certificate.

use super::*;

/// A fast result with an 8-bit verifier spares no exact run: `--require exact` fails (exit 6)
/// naming the units; a full-width fast run and then a `verified` run compute every unit again,
/// keeping the earlier results; then no run computes anything more, and the merge calls the
/// plan `declared exact`: a record's mode is its own claim, which meets no `--require exact`.
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
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(big(&merged["nodes"]), 8_902);
    assert_eq!(merged["trust"], "declared exact");
    refused(
        &["work", "merge", &plan, "--require", "exact"],
        6,
        "a merge cannot check a record's declared mode",
    );
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
        checked.stdout.contains(
            "All 20 recomputed units agree with the journals\n\
             Trust established: independent (units: 400 independent; recomputed here: 20,"
        ),
        "{}",
        checked.stdout
    );
    assert!(
        checked.stdout.contains(
            "A sample of 20 of 400 units misses every forged count with a chance of \
             1 forged: 9.500e-1, 10 forged: 5.951e-1, 100 forged: 2.690e-3"
        ),
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
