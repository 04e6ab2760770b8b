//! `vkperft suite`: every format, vkperft on the shipped reference data (the same tables as
//! `../shared/data/`), the buggy engine's failures walked to their moves, Stockfish on
//! generated suites, engines that hang or crash over two jobs, and JUnit read back by an XML
//! parser.

use crate::common::{run_vkperft, Run};
use crate::hunt_cli::buggy_engine;
use quick_xml::events::Event;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{uci, Move, MoveKind, Position, Role, Square};

const STOCKFISH: &str = "/usr/games/stockfish";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";

/// Published counts (Chess Programming Wiki) of the classic positions, as EPD.
const TRICKY_EPD: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48 ;D2 2039 ;D3 97862 ;D4 4085603
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191 ;D3 2812 ;D4 43238 ;D5 674624
r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1 ;D1 6 ;D2 264 ;D3 9467 ;D4 422333
rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8 ;D1 44 ;D2 1486 ;D3 62379 ;D4 2103487
r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10 ;D1 46 ;D2 2079 ;D3 89890
";

/// A folder of its own for a test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vkperft-suite-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path.display().to_string()
}

fn suite(args: &[&str]) -> (Run, Value) {
    let mut all = vec!["suite", "--json"];
    all.extend_from_slice(args);
    let run = run_vkperft(&all, &[]);
    let json = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    (run, json)
}

fn count(json: &Value, field: &str) -> u64 {
    json["summary"][field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} in {json}"))
}

fn results(json: &Value) -> &Vec<Value> {
    json["results"].as_array().expect("a list of results")
}

fn strings(value: &Value) -> Vec<String> {
    let mut list: Vec<String> = value
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect();
    list.sort();
    list
}

fn root(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn a_suite_of_every_format_runs() {
    let dir = scratch("formats");
    let epd = write(&dir, "tricky.epd", TRICKY_EPD);
    let perft = write(
        &dir,
        "tricky.perft",
        &format!("# from shakmaty\nid kiwipete\nepd {KIWIPETE}\nperft 1 48\nperft 2 2039\n\nid pos-3\nepd 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\nperft 1 14\nperft 2 191\nperft 3 2812\n\n# Chess960 in X-FEN\nid xfen-00\nepd r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq -\nperft 1 23\nperft 2 522\nperft 3 12333\n\nid prison\nepd 2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - -\nperft 1 1\nperft 2 1\nperft 32 1\n"),
    );
    let table = write(
        &dir,
        "plain.txt",
        &format!("{KIWIPETE}\t1\t48\n{KIWIPETE}\t3\t97862\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\t2\t191\n"),
    );
    let (run, json) = suite(&[
        &epd,
        &perft,
        &table,
        "--max-nodes",
        "100000",
        "--tt",
        "off",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed"), 19 + 10 + 3, "{json}");
    assert_eq!(count(&json, "failed"), 0);
    // Over the budget, and the prison's depth 32, beyond the deepest vkperft takes.
    assert_eq!(count(&json, "depths_left_out"), 6, "{json}");
    let ids: Vec<&str> = results(&json)
        .iter()
        .map(|r| r["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids[0], format!("{epd}:1"));
    assert!(ids.contains(&"pos-3"), "{ids:?}");
    // Results in file order, each with what the JSON promises.
    let first = &results(&json)[0];
    for field in [
        "id", "fen", "depth", "expected", "got", "passed", "seconds", "finding",
    ] {
        assert!(first.get(field).is_some(), "{field} in {first}");
    }
    assert_eq!(first["expected"], "20");
    assert_eq!(first["got"], "20");
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// The rows of the named positions' table whose count is at most `budget`.
fn named_rows_within(budget: u128) -> usize {
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/perft-reference.tsv"),
    )
    .expect("the reference table");
    reference
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.split('\t')
                .nth(3)
                .and_then(|n| n.parse::<u128>().ok())
                .is_some_and(|n| n <= budget)
        })
        .count()
}

/// The published counts of the Chess960 start positions that are at most `budget`.
fn chess960_counts_within(budget: u128) -> usize {
    vkperft::reference::chess960::start_positions()
        .iter()
        .map(|start| {
            start
                .perft
                .iter()
                .filter(|&&n| u128::from(n) <= budget)
                .count()
        })
        .sum()
}

/// vkperft matches every published count of both shipped tables up to a node budget, with the
/// table off and with a fast table, on the CPU and on a Vulkan device.
#[test]
fn vkperft_is_exact_on_the_reference_data() {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let reference = assets.join("perft-reference.tsv").display().to_string();
    let chess960 = assets.join("chess960-perft.tsv").display().to_string();
    let (run, json) = suite(&[
        &reference,
        &chess960,
        "--max-nodes",
        "20000",
        "--tt",
        "off",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        count(&json, "passed") as usize,
        named_rows_within(20_000) + chess960_counts_within(20_000)
    );
    assert_eq!(count(&json, "failed"), 0);
    let (run, json) = suite(&[
        &reference,
        "--max-nodes",
        "5000000",
        "--tt",
        "fast",
        "--tt-mb",
        "16",
        "--backend",
        "cpu",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        count(&json, "passed") as usize,
        named_rows_within(5_000_000)
    ); // On a Vulkan device (lavapipe in CI), with its fast table.
    let (run, json) = suite(&[
        &reference,
        "--max-nodes",
        "20000",
        "--tt",
        "fast",
        "--tt-mb",
        "16",
        "--backend",
        "vulkan",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed") as usize, named_rows_within(20_000));
}

/// Legal moves of `pos` for which `keep` holds.
fn legal_where(pos: &Position, keep: impl Fn(&Move) -> bool) -> Vec<String> {
    let mut moves: Vec<String> = legal_moves(pos)
        .iter()
        .filter(|m| keep(m))
        .map(Move::to_string)
        .collect();
    moves.sort();
    moves
}

/// The finding of a failed result ends where its path leads, and its move lists differ from
/// the legal ones by exactly what `bug` changes.
fn assert_finding_fits_the_bug(bug: &str, result: &Value) {
    let finding = &result["finding"];
    assert_eq!(finding["difference"], "moves", "{bug}: {result}");
    let path: Vec<String> = finding["path"]
        .as_array()
        .expect("a path")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect();
    let start = root(result["fen"].as_str().expect("a FEN"));
    let wrong = uci::play_moves(&start, path.iter().map(String::as_str)).expect("a legal path");
    assert_eq!(finding["fen"], wrong.to_fen(), "{bug}");
    let (missing, extra) = (strings(&finding["missing"]), strings(&finding["extra"]));
    match bug {
        "no-en-passant" => {
            assert_eq!(
                missing,
                legal_where(&wrong, |m| m.kind() == MoveKind::EnPassant)
            );
            assert!(extra.is_empty());
        }
        "no-underpromotion" => {
            let under =
                |m: &Move| m.kind().promotion().is_some() && m.kind() != MoveKind::PromoteQueen;
            assert_eq!(missing, legal_where(&wrong, under));
            assert!(extra.is_empty());
        }
        _ => {
            assert!(missing.is_empty(), "{bug}: {result}");
            assert!(!extra.is_empty(), "{bug}: {result}");
            for mv in &extra {
                assert!(
                    uci::parse_move(&wrong, mv).is_err(),
                    "{mv} is illegal there"
                );
                let from = Square::parse(&mv[0..2]).expect("a square");
                let role = wrong.piece_at(from).expect("a piece moves").role;
                match bug {
                    "pinned-knight" => assert_eq!(role, Role::Knight, "{mv}"),
                    _ => assert_eq!(role, Role::King, "{bug} {mv}"),
                }
            }
        }
    }
}

/// Against the buggy engine, each bug: every count that differs from the published one is a
/// failure walked to a position whose move list differs by exactly the bug, and every other
/// check passes with the published count.
#[test]
fn each_bug_of_the_buggy_engine_is_listed_with_its_moves() {
    let dir = scratch("bugs");
    let epd = write(&dir, "tricky.epd", TRICKY_EPD);
    for (bug, interface) in [
        ("no-en-passant", "--uci"),
        ("no-underpromotion", "--uci"),
        ("castle-through-check", "--uci"),
        ("pinned-knight", "--script"),
    ] {
        let command = format!("{} --bug {bug}", buggy_engine());
        let (run, json) = suite(&[
            &epd,
            interface,
            &command,
            "--max-nodes",
            "100000",
            "--jobs",
            "2",
            "--threads",
            "2",
        ]);
        assert_eq!(run.code, 5, "{bug}: {}", run.stderr);
        let mut failed = 0;
        for result in results(&json) {
            assert_ne!(result["status"], "engine_error", "{bug}: {result}");
            if result["passed"] == true {
                assert_eq!(result["got"], result["expected"], "{bug}");
                assert_eq!(result["finding"], Value::Null);
                continue;
            }
            failed += 1;
            assert_ne!(result["got"], result["expected"], "{bug}");
            assert_finding_fits_the_bug(bug, result);
        }
        assert!(failed > 0, "{bug} fails somewhere");
        assert_eq!(count(&json, "failed"), failed);
    }
    // A Chess960 castling bug, on positions without counts: vkperft's stand in.
    let chess960 = write(
        &dir,
        "rook-shield.epd",
        "r3k3/8/8/8/8/8/7P/1R1K4 w B - 0 1\nbqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n",
    );
    let command = format!("{} --bug rook-shield", buggy_engine());
    let (run, json) = suite(&[&chess960, "--uci", &command, "--depth", "3"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let first = &results(&json)[0];
    assert_eq!(first["expected_from"], "vkperft");
    assert_eq!(first["finding"]["extra"], serde_json::json!(["d1b1"]));
    assert_finding_fits_the_bug("rook-shield", first);
    assert_eq!(results(&json)[1]["passed"], true);
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// Stockfish agrees with generated suites, standard and Chess960.
#[test]
fn stockfish_passes_a_generated_suite() {
    let dir = scratch("stockfish");
    for (name, extra) in [("standard.epd", None), ("chess960.epd", Some("--chess960"))] {
        let out = dir.join(name).display().to_string();
        let mut args = vec![
            "suite",
            "--generate",
            "40",
            "--depth",
            "3",
            "--seed",
            "5",
            "--out",
            &out,
            "--threads",
            "2",
        ];
        args.extend(extra);
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let (run, json) = suite(&[&out, "--uci", STOCKFISH, "--jobs", "2"]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert_eq!(count(&json, "passed"), 120, "{name}");
    }
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// `--generate 200 --depth 4` then `suite` of that file: every check passes, and the same seed
/// writes the same file.
#[test]
fn a_generated_suite_passes_and_its_seed_repeats_it() {
    let dir = scratch("generate");
    let first = dir.join("first.epd").display().to_string();
    let second = dir.join("second.epd").display().to_string();
    for out in [&first, &second] {
        let run = run_vkperft(
            &[
                "suite",
                "--generate",
                "200",
                "--depth",
                "4",
                "--seed",
                "0x2a",
                "--out",
                out,
                "--threads",
                "2",
            ],
            &[],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let text = std::fs::read_to_string(&first).expect("written");
    assert_eq!(text, std::fs::read_to_string(&second).expect("written"));
    assert_eq!(text.lines().count(), 200);
    let mut features: BTreeMap<&str, usize> = BTreeMap::new();
    for line in text.lines() {
        let position = root(line.split(" ;").next().expect("a FEN"));
        let moves = legal_moves(&position);
        let kinds: Vec<MoveKind> = moves.iter().map(|m| m.kind()).collect();
        *features.entry("castle").or_default() += usize::from(kinds.contains(&MoveKind::Castle));
        *features.entry("en passant").or_default() +=
            usize::from(kinds.contains(&MoveKind::EnPassant));
        *features.entry("promotion").or_default() +=
            usize::from(kinds.iter().any(|k| k.promotion().is_some()));
        *features.entry("check").or_default() += usize::from(position.is_in_check(position.turn()));
    }
    for (feature, with) in &features {
        assert!(*with >= 30, "{feature}: {with} of 200 ({features:?})");
    }
    let (run, json) = suite(&[
        &first,
        "--max-nodes",
        "100000000",
        "--tt",
        "off",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&json, "passed"), 800);
    let other = dir.join("other.epd").display().to_string();
    let run = run_vkperft(
        &[
            "suite",
            "--generate",
            "20",
            "--depth",
            "1",
            "--seed",
            "43",
            "--out",
            &other,
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_ne!(
        std::fs::read_to_string(&other)
            .expect("written")
            .lines()
            .next(),
        text.lines().next()
    );
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// The placement field of a FEN.
fn placement(fen: &str) -> &str {
    fen.split(' ').next().expect("a placement")
}

/// An engine that hangs on one position, one that crashes there and one that prints garbage
/// there, over two jobs: that position is reported with the engine's failure, and every other
/// check passes on a restarted engine.
#[test]
fn a_hanging_or_crashing_engine_is_reported_and_the_suite_goes_on() {
    let dir = scratch("failures");
    let epd = write(&dir, "tricky.epd", TRICKY_EPD);
    let kiwipete = placement(KIWIPETE);
    for (bug, message) in [
        ("hang", "gave no answer within 2 s"),
        ("crash", "exited (exit status: 3)"),
        ("garbage", "\"@@ not a divide @@\""),
    ] {
        for interface in ["--uci", "--script"] {
            let command = format!("{} --bug {bug} --at {kiwipete}", buggy_engine());
            let junit = dir.join(format!("{bug}.xml")).display().to_string();
            let (run, json) = suite(&[
                &epd,
                interface,
                &command,
                "--depth",
                "2",
                "--jobs",
                "2",
                "--timeout-s",
                "2",
                "--junit",
                &junit,
            ]);
            assert_eq!(run.code, 1, "{bug} {interface}: {}", run.stderr);
            assert_eq!(count(&json, "passed"), 5, "{json}");
            assert_eq!(count(&json, "engine_errors"), 1);
            let failed = &results(&json)[1];
            assert_eq!(failed["status"], "engine_error");
            let error = failed["error"].as_str().expect("a message");
            assert!(error.contains(message), "{error}");
            assert!(error.contains(kiwipete), "names the position: {error}");
            let cases = junit_cases(&std::fs::read_to_string(&junit).expect("written"));
            assert_eq!(cases.len(), 6);
            assert_eq!(cases[1].1, "error", "{cases:?}");
            assert!(cases
                .iter()
                .enumerate()
                .all(|(i, case)| i == 1 || case.1 == "passed"));
        }
    }
    let run = run_vkperft(
        &[
            "suite",
            &epd,
            "--uci",
            "/nonexistent/engine",
            "--depth",
            "1",
        ],
        &[],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("UCI handshake"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// The test cases of a JUnit document, read by an XML parser: each case's name and what it
/// holds (`passed`, `failure`, `error` or `skipped`); the counts of each `<testsuite>` and of
/// `<testsuites>` must add up.
fn junit_cases(xml: &str) -> Vec<(String, String)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut cases: Vec<(String, String)> = Vec::new();
    let mut declared: BTreeMap<String, usize> = BTreeMap::new();
    let attribute = |element: &quick_xml::events::BytesStart, name: &str| -> Option<String> {
        element
            .try_get_attribute(name)
            .expect("well-formed attributes")
            .map(|a| {
                a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                    .expect("escaped properly")
                    .into_owned()
            })
    };
    let mut depth = 0;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(element) | Event::Empty(element)
                if element.name().as_ref() == b"testsuites" =>
            {
                for field in ["tests", "failures", "errors", "skipped"] {
                    let value = attribute(&element, field)
                        .expect(field)
                        .parse()
                        .expect("a number");
                    declared.insert(field.to_string(), value);
                }
                depth += 1;
            }
            Event::Start(element) if element.name().as_ref() == b"testcase" => {
                cases.push((
                    attribute(&element, "name").expect("a name"),
                    "passed".into(),
                ));
                depth += 1;
            }
            Event::Empty(element) if element.name().as_ref() == b"testcase" => {
                cases.push((
                    attribute(&element, "name").expect("a name"),
                    "passed".into(),
                ));
            }
            Event::Start(element) | Event::Empty(element)
                if matches!(element.name().as_ref(), b"failure" | b"error" | b"skipped") =>
            {
                assert!(attribute(&element, "message").is_some());
                let kind = String::from_utf8(element.name().as_ref().to_vec()).expect("ASCII");
                cases.last_mut().expect("inside a test case").1 = kind;
            }
            Event::Text(text) => {
                text.decode().expect("text decodes");
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(depth > 0);
    let of = |kind: &str| cases.iter().filter(|case| case.1 == kind).count();
    assert_eq!(declared["tests"], cases.len());
    assert_eq!(declared["failures"], of("failure"));
    assert_eq!(declared["errors"], of("error"));
    assert_eq!(declared["skipped"], of("skipped"));
    cases
}

/// JUnit with failures, an engine error and a refused (illegal) position parses, and says
/// which is which; the walk's end is in the failure's text.
#[test]
fn junit_output_is_valid_xml_with_failures_errors_and_refusals() {
    let dir = scratch("junit");
    let epd = write(
        &dir,
        "mixed.epd",
        &format!("{KIWIPETE} ;D1 48 ;D2 2039 ;D3 97862\n8/8/8/8/8/8/8/K7 w - - ;D1 3\n"),
    );
    let junit = dir.join("out.xml").display().to_string();
    let command = format!("{} --bug no-en-passant", buggy_engine());
    let (run, json) = suite(&[&epd, "--uci", &command, "--junit", &junit, "--jobs", "2"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_eq!(count(&json, "refused"), 1);
    let xml = std::fs::read_to_string(&junit).expect("written");
    let cases = junit_cases(&xml);
    let kinds: Vec<&str> = cases.iter().map(|case| case.1.as_str()).collect();
    // Kiwipete's first en passant capture comes at depth 2.
    assert_eq!(kinds, ["passed", "failure", "failure", "skipped"], "{xml}");
    assert!(xml.contains("missing: "), "{xml}");
    assert!(cases[3].0.ends_with("depth 1"));
    std::fs::remove_dir_all(&dir).expect("removed");
}

#[test]
fn bad_input_is_refused_naming_file_and_line() {
    let dir = scratch("bad");
    let bad = write(
        &dir,
        "bad.epd",
        &format!("{KIWIPETE} ;D1 48\n{KIWIPETE} ;D1 4x8\n"),
    );
    let run = run_vkperft(&["suite", &bad], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{bad}:2: node count \"4x8\"")),
        "{}",
        run.stderr
    );
    let (run, json) = suite(&[&bad, "--skip-bad", "--tt", "off"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json["skipped"][0]["line"], 2);
    assert_eq!(count(&json, "skipped_lines"), 1);
    let illegal = write(&dir, "illegal.epd", "8/8/8/8/8/8/8/K7 w - - ;D1 3\n");
    let run = run_vkperft(&["suite", &illegal, "--tt", "off"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.contains("REFUSED"), "{}", run.stdout);
    assert!(
        run.stdout.contains("illegal position: black has no king"),
        "{}",
        run.stdout
    );
    for args in [
        vec!["suite"],
        vec!["suite", "/nonexistent.epd"],
        vec!["suite", &bad, "--depth", "0"],
        vec!["suite", "--generate", "5", "--out", "x.epd"],
        vec!["suite", &bad, "--uci", "a", "--script", "b"],
    ] {
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    }
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// A count the file gets wrong: vkperft's backend agrees with its exact count, so the walk
/// ends at the root with no difference and says the file differs; without the walk, the
/// failure has no finding.
#[test]
fn a_wrong_count_in_the_file_is_told_apart_from_a_wrong_engine() {
    let dir = scratch("wrong-file");
    let epd = write(&dir, "wrong.epd", &format!("{KIWIPETE} ;D1 48 ;D2 2040\n"));
    let (run, json) = suite(&[&epd, "--tt", "fast", "--tt-mb", "16", "--threads", "2"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    let wrong = &results(&json)[1];
    assert_eq!(wrong["expected"], "2040");
    assert_eq!(wrong["got"], "2039");
    assert_eq!(wrong["finding"]["difference"], "none", "{wrong}");
    assert_eq!(wrong["finding"]["path"], serde_json::json!([]));
    let run = run_vkperft(&["suite", &epd, "--tt", "off"], &[]);
    assert!(
        run.stdout
            .contains("the file's count differs from vkperft's"),
        "{}",
        run.stdout
    );
    let command = format!("{} --bug no-en-passant", buggy_engine());
    let (run, json) = suite(&[&epd, "--uci", &command, "--no-drill-down"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_eq!(results(&json)[1]["status"], "failed");
    assert_eq!(results(&json)[1]["finding"], Value::Null);
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// A run that checks nothing is no pass (exit 2): a depth past vkperft's, `--max-nodes 0`, a
/// FEN-only file without `--depth`. A UTF-8 byte order mark before the first line is not part
/// of its FEN.
#[test]
fn nothing_checked_is_an_error_and_a_byte_order_mark_is_no_piece() {
    let dir = scratch("nothing-checked");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let deep = write(&dir, "deep.epd", &format!("{start} ;D99 1\n"));
    let counted = write(&dir, "counted.epd", &format!("{start} ;D1 20 ;D2 400\n"));
    let bare = write(&dir, "bare.epd", &format!("{start}\n"));
    for args in [
        vec!["suite", deep.as_str()],
        vec!["suite", counted.as_str(), "--max-nodes", "0"],
        vec!["suite", bare.as_str()],
    ] {
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("nothing was checked") || run.stderr.contains("D99"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let bom = write(
        &dir,
        "bom.epd",
        &format!("\u{feff}{start} ;D1 20 ;D2 400\n"),
    );
    let run = run_vkperft(&["suite", &bom], &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("2 checks: 2 passed"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

mod statistics;
