//! `vkperft hunt` against engines with known bugs (`examples/buggy_engine.rs`, built by `cargo
//! test`), over UCI and the perftree script interface, against Stockfish (which agrees), and
//! against engines that hang, crash or print garbage.

use crate::common::{assert_child_ended, run_vkperft, script_with_child, Run};
use serde_json::Value;
use std::path::PathBuf;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{uci, Move, MoveKind, Position, Role, Square};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const STOCKFISH: &str = "/usr/games/stockfish";

pub(crate) fn buggy_engine() -> String {
    let vkperft = PathBuf::from(env!("CARGO_BIN_EXE_vkperft"));
    let engine = vkperft
        .parent()
        .expect("the binary's folder")
        .join("examples")
        .join("buggy_engine");
    assert!(
        engine.is_file(),
        "{} (built by cargo test)",
        engine.display()
    );
    engine.display().to_string()
}

fn hunt(args: &[&str]) -> (Run, Value) {
    let mut all = vec!["hunt", "--json"];
    all.extend_from_slice(args);
    let run = run_vkperft(&all, &[]);
    let json = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    (run, json)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

fn sorted(mut moves: Vec<String>) -> Vec<String> {
    moves.sort();
    moves
}

/// Legal moves of `pos` for which `keep` holds.
fn legal_where(pos: &Position, keep: impl Fn(&Move) -> bool) -> Vec<String> {
    sorted(
        legal_moves(pos)
            .iter()
            .filter(|m| keep(m))
            .map(Move::to_string)
            .collect(),
    )
}

/// The hunt ends on a position reached by its path from the root, where the engine's move list
/// differs from the legal one by exactly what the bug changes, within one query per ply.
#[test]
fn each_injected_bug_is_found_with_its_position_and_moves() {
    let engine = buggy_engine();
    for (bug, interface) in [
        ("no-en-passant", "--uci"),
        ("no-underpromotion", "--uci"),
        ("castle-through-check", "--uci"),
        ("pinned-knight", "--uci"),
        ("no-en-passant", "--script"),
        ("pinned-knight", "--script"),
    ] {
        let command = format!("{engine} --bug {bug}");
        let depth = 4;
        let (run, json) = hunt(&[interface, &command, "--depth", "4", "--fen", KIWIPETE]);
        assert_eq!(run.code, 5, "{bug} {interface}: {}", run.stderr);
        assert_eq!(json["agrees"], false, "{bug}");
        assert_eq!(json["difference"], "moves", "{bug}: {json}");
        let path = strings(&json["path"]);
        let root = Position::from_fen(KIWIPETE).expect("kiwipete");
        let wrong = uci::play_moves(&root, path.iter().map(String::as_str)).expect("a legal path");
        assert_eq!(json["fen"], wrong.to_fen(), "{bug}");
        let queries = json["queries"].as_u64().expect("a count");
        assert_eq!(queries as usize, path.len() + 1, "{bug}");
        assert!(queries <= depth, "{bug}: {queries} queries");
        let missing = sorted(strings(&json["missing"]));
        let extra = sorted(strings(&json["extra"]));
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
            "castle-through-check" => {
                assert!(missing.is_empty());
                assert!(!extra.is_empty());
                for mv in &extra {
                    assert!(
                        ["e1g1", "e1c1", "e8g8", "e8c8"].contains(&mv.as_str()),
                        "{mv}"
                    );
                    assert!(
                        uci::parse_move(&wrong, mv).is_err(),
                        "{mv} is illegal there"
                    );
                }
            }
            _ => {
                assert!(missing.is_empty());
                assert!(!extra.is_empty());
                for mv in &extra {
                    assert!(
                        uci::parse_move(&wrong, mv).is_err(),
                        "{mv} is illegal there"
                    );
                    let from = Square::parse(&mv[0..2]).expect("a square");
                    let piece = wrong.piece_at(from).expect("a piece moves");
                    assert_eq!(piece.role, Role::Knight, "{mv}");
                }
            }
        }
    }
}

#[test]
fn the_text_report_names_the_position_and_the_moves() {
    let command = format!("{} --bug no-en-passant", buggy_engine());
    let run = run_vkperft(
        &["hunt", "--uci", &command, "--depth", "4", "--fen", KIWIPETE],
        &[],
    );
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("depth 4  root: vkperft 4,085,603"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("The engine's move list is wrong after"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("missing (legal, not listed by the engine): "),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("differs from vkperft"),
        "{}",
        run.stderr
    );
}

#[test]
fn stockfish_and_a_correct_engine_agree_on_the_reference_positions() {
    let positions = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];
    for fen in positions {
        let (run, json) = hunt(&["--uci", STOCKFISH, "--depth", "5", "--fen", fen]);
        assert_eq!(run.code, 0, "{fen}: {}", run.stderr);
        assert_eq!(json["agrees"], true, "{fen}");
        assert_eq!(json["queries"], 1, "{fen}");
    }
    let command = format!("{} --bug none", buggy_engine());
    let run = run_vkperft(&["hunt", "--script", &command, "--depth", "3"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("no difference at depth 3"),
        "{}",
        run.stdout
    );
}

/// A script whose moves agree but whose total does not: the one difference reported.
#[test]
fn a_wrong_total_alone_is_reported() {
    let script = std::env::temp_dir().join(format!("vkperft-off-by-one-{}.sh", std::process::id()));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n{} perftree \"$1\" \"$2\" \"$3\" | sed 's/^8902$/8903/'\n",
            env!("CARGO_BIN_EXE_vkperft")
        ),
    )
    .expect("the script is written");
    let command = format!("sh {}", script.display());
    let (run, json) = hunt(&["--script", &command, "--depth", "3"]);
    let _ = std::fs::remove_file(&script);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_eq!(json["difference"], "total", "{json}");
    assert_eq!(json["expected_total"], "8902");
    assert_eq!(json["engine_total"], "8903");
    assert_eq!(json["path"], Value::Array(Vec::new()));
}

#[test]
fn engines_that_hang_crash_or_print_garbage_are_clear_errors() {
    let engine = buggy_engine();
    for interface in ["--uci", "--script"] {
        let hang = format!("{engine} --bug hang");
        let started = std::time::Instant::now();
        let run = run_vkperft(
            &["hunt", interface, &hang, "--depth", "3", "--timeout-s", "1"],
            &[],
        );
        assert_eq!(run.code, 1, "{interface}: {}", run.stderr);
        assert!(
            run.stderr.contains("gave no answer within 1 s"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("rnbqkbnr/pppppppp"),
            "names the position: {}",
            run.stderr
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(60));

        let crash = format!("{engine} --bug crash");
        let run = run_vkperft(&["hunt", interface, &crash, "--depth", "3"], &[]);
        assert_eq!(run.code, 1, "{interface}: {}", run.stderr);
        assert!(
            run.stderr.contains("exited (exit status: 3)"),
            "{}",
            run.stderr
        );

        let garbage = format!("{engine} --bug garbage");
        let run = run_vkperft(&["hunt", interface, &garbage, "--depth", "3"], &[]);
        assert_eq!(run.code, 1, "{interface}: {}", run.stderr);
        assert!(
            run.stderr.contains("\"@@ not a divide @@\""),
            "{}",
            run.stderr
        );
    }
    let run = run_vkperft(
        &["hunt", "--uci", "/nonexistent/engine", "--depth", "3"],
        &[],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("UCI handshake"), "{}", run.stderr);
}

/// A script that overruns its deadline is killed with the engine it started.
#[test]
fn a_hung_script_is_killed_with_what_it_started() {
    let (script, pid_file) = script_with_child("hunt-hung", "sleep 600", "wait");
    let command = format!("sh {}", script.display());
    let started = std::time::Instant::now();
    let run = run_vkperft(
        &[
            "hunt",
            "--script",
            &command,
            "--depth",
            "2",
            "--timeout-s",
            "1",
        ],
        &[],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("gave no answer within 1 s"),
        "{}",
        run.stderr
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    assert_child_ended(&pid_file);
}

/// A script that answers but leaves a process behind, holding its output open, does not stall
/// the hunt: what it left is killed once it exits.
#[test]
fn what_an_answered_script_left_running_is_killed() {
    let answer = format!(
        "{} perftree \"$1\" \"$2\" \"$3\"",
        env!("CARGO_BIN_EXE_vkperft")
    );
    let (script, pid_file) = script_with_child("hunt-left", "sleep 600", &answer);
    let command = format!("sh {}", script.display());
    let started = std::time::Instant::now();
    let run = run_vkperft(&["hunt", "--script", &command, "--depth", "2"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("no difference at depth 2"),
        "{}",
        run.stdout
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    assert_child_ended(&pid_file);
}

#[test]
fn bad_input_is_refused() {
    let engine = format!("{} --bug none", buggy_engine());
    for args in [
        vec!["hunt", "--uci", &engine, "--depth", "0"],
        vec![
            "hunt",
            "--uci",
            &engine,
            "--depth",
            "3",
            "--fen",
            "not a fen",
        ],
        vec!["hunt", "--uci", &engine, "--depth", "3", "--moves", "e2e5"],
        vec!["hunt", "--depth", "3"],
        vec![
            "hunt", "--uci", &engine, "--script", &engine, "--depth", "3",
        ],
    ] {
        let run = run_vkperft(&args, &[]);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    }
    let buggy = format!("{} --bug no-en-passant", buggy_engine());
    let run = run_vkperft(
        &[
            "hunt",
            "--uci",
            &buggy,
            "--depth",
            "4",
            "--fen",
            KIWIPETE,
            "--max-queries",
            "2",
        ],
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("more than 2 engine queries"),
        "{}",
        run.stderr
    );
}

/// In Chess960 the engine is told `UCI_Chess960` and castles are compared king-to-rook:
/// Stockfish agrees on Chess960 positions (Shredder-FEN and X-FEN) and on a standard position
/// given `--chess960`, and so does a correct engine that honours the option.
#[test]
fn stockfish_and_a_correct_engine_agree_in_chess960() {
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",
    ] {
        let (run, json) = hunt(&["--uci", STOCKFISH, "--depth", "4", "--fen", fen]);
        assert_eq!(run.code, 0, "{fen}: {}", run.stderr);
        assert_eq!(json["agrees"], true, "{fen}");
    }
    let standard = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let correct = format!("{} --bug none", buggy_engine());
    for engine in [STOCKFISH, correct.as_str()] {
        let (run, json) = hunt(&[
            "--uci",
            engine,
            "--depth",
            "3",
            "--fen",
            standard,
            "--chess960",
            "--moves",
            "e1g1",
        ]);
        assert_eq!(run.code, 0, "{engine}: {}", run.stderr);
        assert_eq!(json["agrees"], true, "{engine}");
    }
}

/// A Chess960 castling bug (castling when the castling rook shielded the king's target along
/// the back rank) is found two plies down, and the extra move is written king-to-rook.
#[test]
fn a_chess960_castling_bug_is_found() {
    let fen = "r3k3/8/8/8/8/8/7P/1R1K4 w B - 0 1";
    let command = format!("{} --bug rook-shield", buggy_engine());
    let (run, json) = hunt(&["--uci", &command, "--depth", "3", "--fen", fen]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_eq!(json["difference"], "moves", "{json}");
    let path = strings(&json["path"]);
    assert_eq!(path.len(), 2, "{path:?}");
    assert_eq!(path[1], "a8a1");
    assert_eq!(strings(&json["extra"]), ["d1b1"]);
    assert!(strings(&json["missing"]).is_empty());
}

/// A FEN typed with a line break or a Unicode space between its fields, which the FEN parser
/// accepts, reaches the engine as vkperft writes it, on one UCI line: Stockfish agrees.
#[test]
fn the_engine_is_sent_the_fen_as_vkperft_writes_it() {
    // Castling counts at depth 2 here: an engine that lost the rights differs.
    for fen in [
        KIWIPETE.replace(" w ", " w\n"),
        KIWIPETE.replace(" w ", "\u{a0}w\u{2028}"),
        KIWIPETE.replace(" KQkq ", "\u{3000}KQkq\t"),
    ] {
        let (run, json) = hunt(&["--uci", STOCKFISH, "--depth", "2", "--fen", &fen]);
        assert_eq!(run.code, 0, "{fen:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(json["agrees"], true, "{fen:?}");
    }
}

/// Engine output is read as bytes: a byte that is not UTF-8 (an author's name in Latin-1) is
/// no end of the engine. An engine that writes without line breaks is an engine error at the
/// line cap (exit 1), long before its deadline; a script that prints nothing, or moves without
/// a total, is an engine error too, never a finding that every move is missing.
#[test]
fn engine_output_is_bytes_with_a_line_cap_and_a_total() {
    let latin1 = format!("printf 'id author J\\366rg\\n'; exec {STOCKFISH}");
    let (run, json) = hunt(&["--uci", &latin1, "--depth", "2"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(json["agrees"], true);

    for interface in ["--uci", "--script"] {
        // `; :` takes the arguments a script is called with.
        let endless = "yes x | tr -d '\\n'; :";
        let run = run_vkperft(
            &[
                "hunt",
                interface,
                endless,
                "--depth",
                "2",
                "--timeout-s",
                "20",
            ],
            &[],
        );
        assert_eq!(run.code, 1, "{interface}: {}", run.stderr);
        assert!(
            run.stderr.contains("printed a line longer than 64 KiB"),
            "{interface}: {}",
            run.stderr
        );
    }
    for script in [
        "true",
        "printf 'a2a3 380\\n'; :",
        "printf '\\377\\376\\n'; :",
    ] {
        let run = run_vkperft(&["hunt", "--script", script, "--depth", "3"], &[]);
        assert_eq!(run.code, 1, "{script}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("gave no total") || run.stderr.contains("not part of a divide"),
            "{script}: {}",
            run.stderr
        );
    }
}
