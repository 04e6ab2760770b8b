//! Forged plans and journals, sealed again as a forger would (CRC-32 and SHA-256 are anyone's to
//! recompute): a changed multiplicity, a replaced unit position and records rewritten as
//! `"mode":"off"` are caught by `merge` or `verify-certificate` (exit 3, naming the unit or the
//! root move), and declared trust never meets `--require exact`.

use super::*;
use vkperft::work::{Manifest, PlanSeal};

const COMMON: [&str; 6] = ["--backend", "cpu", "--threads", "1", "--tt-mb", "1"];

/// Rewrites the shard lines of `plan` with `edit` (unit id, line as JSON), then seals the plan
/// again: each shard's CRC-32 in the manifest, and every journal record with the new manifest's
/// SHA-256.
fn forge_units(plan: &str, edit: impl Fn(u64, &mut Value)) {
    let dir = Path::new(plan);
    let (mut manifest, _) = Manifest::read(dir).expect("a plan");
    for shard in &mut manifest.shards {
        let path = dir.join(&shard.file);
        let text = std::fs::read_to_string(&path).expect("a shard");
        let mut forged = String::new();
        for line in text.lines() {
            let mut unit: Value = serde_json::from_str(line).expect("a unit line");
            edit(unit["unit"].as_u64().expect("a unit id"), &mut unit);
            forged += &format!("{unit}\n");
        }
        std::fs::write(&path, &forged).expect("written");
        shard.crc32 = format!("{:08x}", crc32fast::hash(forged.as_bytes()));
    }
    let text = manifest.to_text();
    std::fs::write(dir.join("manifest.json"), &text).expect("written");
    let seal = PlanSeal::of(text.as_bytes());
    forge_records(plan, |record| record.plan = seal);
}

/// Rewrites every journal record of `plan` with `edit`, each sealed again.
fn forge_records(plan: &str, edit: impl Fn(&mut JournalRecord)) {
    let dir = Path::new(plan).join("journal");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a journal");
        let mut forged = String::new();
        for line in text.lines() {
            let mut record = JournalRecord::parse(line).expect("a record");
            edit(&mut record);
            forged += &record.to_line();
        }
        std::fs::write(&path, forged).expect("written");
    }
}

fn run_plan(plan: &str, extra: &[&str]) -> Run {
    ok(&[&["work", "run", plan][..], extra, &COMMON].concat())
}

fn verify(certificate: &str, extra: &[&str]) -> Run {
    vkperft(
        &[
            &["work", "verify-certificate", certificate][..],
            extra,
            &COMMON,
        ]
        .concat(),
    )
}

/// Unit 5 of perft 4 split at ply 2 (a position one path reaches) given two paths, the
/// forged shard and manifest sealed again: the total would be 197,281 + perft 2 of that unit,
/// but the merge finds that the paths below its root move no longer add up to perft 1 after it,
/// and names the unit.
#[test]
fn a_changed_multiplicity_is_refused_by_the_merge() {
    let folder = Folder::new("forged-paths");
    let plan = folder.plan("p");
    split(&plan, START, 4, 2, &[]);
    run_plan(&plan, &["--tt", "fast"]);
    assert_eq!(
        big(&json(&["work", "merge", &plan, "--json"])["nodes"]),
        197_281
    );
    forge_units(&plan, |id, unit| {
        if id == 5 {
            assert_eq!(unit["paths"], "1");
            unit["paths"] = "2".into();
            unit["roots"][0]["paths"] = "2".into();
        }
    });
    let stderr = refused(
        &["work", "merge", &plan],
        3,
        "the plan is not what its root makes it",
    );
    assert!(
        stderr.contains("the units' paths add up to 21, perft below it is 20"),
        "{stderr}"
    );
    assert!(
        stderr.contains("unit 5: paths 2 in the plan, 1 split again from the root"),
        "{stderr}"
    );
}

/// Unit 7's position replaced by another (whose own perft differs), sealed again and run: the
/// paths still add up, so the merge gives a total; the certificate of that total is refused by
/// `verify-certificate`, which splits the root again and names the unit. An honest plan's
/// certificate holds and re-derives.
#[test]
fn a_replaced_unit_position_is_refused_by_the_certificate_check() {
    let folder = Folder::new("forged-position");
    let plan = folder.plan("p");
    split(&plan, START, 4, 2, &[]);
    run_plan(&plan, &["--tt", "fast"]);
    let certificate = folder.0.join("honest.json").to_string_lossy().into_owned();
    ok(&["work", "merge", &plan, "--certificate", &certificate]);
    let honest = verify(&certificate, &["--sample", "5", "--seed", "1"]);
    assert_eq!(honest.code, 0, "{}{}", honest.stdout, honest.stderr);
    assert!(
        honest
            .stdout
            .contains("Plan holds: its 400 units are the unique positions at ply 2 of the root"),
        "{}",
        honest.stdout
    );

    let replacement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let original = std::cell::RefCell::new(String::new());
    forge_units(&plan, |id, unit| {
        if id == 7 {
            *original.borrow_mut() = unit["fen"].as_str().expect("a FEN").to_string();
            unit["fen"] = replacement.into();
        }
    });
    std::fs::remove_dir_all(Path::new(&plan).join("journal")).expect("removed");
    run_plan(&plan, &["--tt", "fast"]);
    let forged = folder.0.join("forged.json").to_string_lossy().into_owned();
    ok(&["work", "merge", &plan, "--certificate", &forged]);
    let caught = verify(&forged, &["--sample", "1", "--seed", "1"]);
    assert_eq!(caught.code, 3, "{}{}", caught.stdout, caught.stderr);
    assert!(
        caught.stderr.contains(&format!(
            "unit 7: position {replacement} in the plan, {} split again from the root",
            original.borrow()
        )),
        "{}",
        caught.stderr
    );
}

/// A plan computed with one fast seed whose records are rewritten as `"mode":"off"`, the count
/// of unit 11 changed, and sealed again: the merge gives the forged total but only as
/// `declared exact`, short of `--require exact` and of `--require
/// independent` (exit 6); a recomputation of every unit in `verified` names the unit (exit 3).
/// An honest `verified` run reaches `exact` only through that recomputation.
#[test]
fn records_declaring_an_exact_mode_do_not_meet_require_exact() {
    let folder = Folder::new("forged-mode");
    let plan = folder.plan("p");
    split(&plan, START, 4, 2, &[]);
    run_plan(&plan, &["--tt", "verified"]);
    let stderr = refused(
        &["work", "merge", &plan, "--require", "exact"],
        6,
        "the total's trust is declared exact, short of --require exact: 400 of 400 units",
    );
    assert!(stderr.contains("verify-certificate"), "{stderr}");
    let certificate = folder.0.join("honest.json").to_string_lossy().into_owned();
    ok(&["work", "merge", &plan, "--certificate", &certificate]);
    let exact = verify(
        &certificate,
        &["--sample", "100", "--tt", "verified", "--require", "exact"],
    );
    assert_eq!(exact.code, 0, "{}{}", exact.stdout, exact.stderr);
    assert!(
        exact
            .stdout
            .contains("Trust established: exact (units: 400 exact; recomputed here: 400"),
        "{}",
        exact.stdout
    );
    let sampled = verify(&certificate, &["--sample", "5", "--require", "exact"]);
    assert_eq!(sampled.code, 6, "{}{}", sampled.stdout, sampled.stderr);

    std::fs::remove_dir_all(Path::new(&plan).join("journal")).expect("removed");
    run_plan(&plan, &["--tt", "fast"]);
    let unit_11 = journal_lines(&plan)[0]
        .iter()
        .map(|line| JournalRecord::parse(line).expect("a record"))
        .find(|record| record.unit == 11)
        .expect("unit 11's result")
        .nodes;
    forge_records(&plan, |record| {
        record.method.mode = vkperft::tt::TtMode::Off;
        if record.unit == 11 {
            record.nodes += 1;
        }
    });
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(merged["trust"], "declared exact");
    assert_eq!(big(&merged["nodes"]), 197_282, "unit 11 has one path");
    refused(
        &["work", "merge", &plan, "--require", "exact"],
        6,
        "short of --require exact",
    );
    refused(
        &["work", "merge", &plan, "--require", "independent"],
        6,
        "short of --require independent",
    );
    let forged = folder.0.join("forged.json").to_string_lossy().into_owned();
    ok(&["work", "merge", &plan, "--certificate", &forged]);
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&forged).expect("written")).expect("JSON");
    assert_eq!(document["trust"]["level"], "declared exact");
    let caught = verify(
        &forged,
        &["--sample", "100", "--tt", "verified", "--require", "exact"],
    );
    assert_eq!(caught.code, 3, "{}{}", caught.stdout, caught.stderr);
    assert!(
        caught.stderr.contains(&format!(
            "unit 11: journal {}, recomputed {unit_11}",
            unit_11 + 1
        )),
        "{}",
        caught.stderr
    );
}
