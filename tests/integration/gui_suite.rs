//! The Suite window: a suite file opened, run against vkperft and against the run panel's
//! engine, its table filled, and a failure clicked into the board and the divide table.

use super::gui::{buggy_engine, harness, shows, step_until, test_settings};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use vkperft::app::{EngineKind, Settings, VkperftApp};
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{Move, MoveKind, Position};
use vkperft::hunt::Difference;

const SUITE: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48 ;D2 2039 ;D3 97862
";

/// Opens the Suite window and the suite file at `path`.
fn open_suite(harness: &mut Harness<'static, VkperftApp>, path: &str) {
    harness.get_by_label("Suite…").click();
    step_until(harness, "the suite window", |h| shows(h, "Suite file"));
    harness.get_by_label("Suite file").click();
    harness.step();
    harness.event(egui::Event::Paste(path.to_string()));
    harness.step();
    harness.get_by_label("Open").click();
    harness.step();
    harness.step();
}

fn suite_done(harness: &Harness<'static, VkperftApp>) -> bool {
    let view = &harness.state().state().suite;
    !view.running && !view.results.is_empty() && view.results.iter().all(Option::is_some)
}

fn suite_file(name: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "vkperft-gui-suite-{name}-{}.epd",
        std::process::id()
    ));
    std::fs::write(&path, SUITE).expect("written");
    path.display().to_string()
}

#[test]
fn a_suite_against_vkperft_fills_the_table_with_passes() {
    let path = suite_file("vkperft");
    let mut harness = harness(test_settings(3));
    open_suite(&mut harness, &path);
    assert!(shows(&harness, "6 checks"), "the file's checks are counted");
    harness.get_by_label("▶ Run against vkperft").click();
    step_until(&mut harness, "the suite's results", suite_done);
    let view = &harness.state().state().suite;
    assert!(view.results.iter().flatten().all(|r| r.passed()));
    assert!(shows(&harness, "6 of 6 done: 6 passed, 0 failed"));
    assert_eq!(harness.query_all_by_label("✔ pass").count(), 6);
    // Each row names its position by its FEN too, not by the file's line alone.
    for task in view.tasks().expect("loaded") {
        assert!(shows(&harness, &task.fen), "{}", task.fen);
    }
    let _ = std::fs::remove_file(&path);
}

/// Against the engine without en passant, the failures are listed; clicking one puts the walk
/// in the divide table and the wrong position on the board with its missing moves marked.
#[test]
fn a_failure_clicked_loads_its_walk_and_position() {
    let path = suite_file("engine");
    let mut harness = harness(Settings {
        engine: buggy_engine("no-en-passant"),
        engine_kind: EngineKind::Uci,
        ..test_settings(3)
    });
    open_suite(&mut harness, &path);
    harness.get_by_label("▶ Run against the engine").click();
    step_until(&mut harness, "the suite's results", suite_done);
    assert!(shows(&harness, "6 of 6 done: 4 passed, 2 failed"));
    let failure = "✘ ".to_string() + &path + ":2 depth 3";
    harness.get_by_label(&failure).click();
    harness.step();
    harness.step();
    let app = harness.state().state();
    let finding = app.engine_check.finding.clone().expect("the walk's end");
    let Difference::Moves { missing, extra } = &finding.difference else {
        panic!("{finding:?}");
    };
    assert!(extra.is_empty());
    let en_passant: Vec<Move> = legal_moves(&finding.position)
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .copied()
        .collect();
    assert_eq!(missing, &en_passant);
    assert_eq!(app.levels.len(), finding.path.len() + 1);
    let root =
        Position::from_fen(app.suite.tasks().expect("loaded")[5].fen.as_str()).expect("kiwipete");
    let reached = finding
        .path
        .iter()
        .fold(root, |position, &mv| position.play(mv));
    assert_eq!(reached, finding.position);
    assert_eq!(app.editor.fen_text(), finding.position.to_fen());
    assert_eq!(
        app.engine_check.marks(app.editor.position()).len(),
        missing.len()
    );
    assert!(app
        .levels
        .iter()
        .all(|level| level.engine.is_some() && level.expected.is_some()));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_file_that_cannot_be_read_says_why() {
    let mut harness = harness(test_settings(3));
    open_suite(&mut harness, "/nonexistent/suite.epd");
    assert!(shows(&harness, "cannot read /nonexistent/suite.epd"));
}
