//! The journal as merge, status and compare read it: torn, damaged, disagreeing and foreign
//! lines, and a narrowed fast table caught by compare.

use super::*;

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
