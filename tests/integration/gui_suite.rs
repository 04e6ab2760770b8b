//! The Suite window: a suite file opened, run against vkperft and against the run panel's
//! engine, its table filled, and a failure clicked into the board and the divide table.

use super::gui::{
    buggy_engine, harness, harness_of, idle, run_button_enabled, shows, step_until, test_settings,
};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use vkperft::app::{EngineKind, Settings, VkperftApp};
use vkperft::backend::RunError;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{Move, MoveKind, Position};
use vkperft::engine::{BackendProvider, Backends, Job, Resolved};
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

/// This machine's backends behind a gate: each job is counted, and waits for the gate to open
/// before it gets its backend.
struct GatedBackends {
    backends: Backends,
    jobs: Arc<AtomicUsize>,
    open: Arc<AtomicBool>,
}

impl BackendProvider for GatedBackends {
    fn backend_for(&mut self, job: &Job, cancel: &AtomicBool) -> Result<Resolved<'_>, RunError> {
        self.jobs.fetch_add(1, Ordering::SeqCst);
        while !self.open.load(Ordering::SeqCst) && !cancel.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.backends.backend_for(job, cancel)
    }

    fn reset(&mut self) {
        self.backends.reset();
    }
}

/// The suite's checks are jobs of the window's own engine (it opens no engine, and no device,
/// of its own), and while they run the run panel's Run waits.
#[test]
fn a_suite_against_vkperft_runs_on_the_windows_engine() {
    let path = suite_file("one-engine");
    let jobs = Arc::new(AtomicUsize::new(0));
    let open = Arc::new(AtomicBool::new(false));
    let backends = GatedBackends {
        backends: Backends::default(),
        jobs: jobs.clone(),
        open: open.clone(),
    };
    let app = VkperftApp::with_backends(test_settings(3), Box::new(backends));
    let mut harness = harness_of(app);
    open_suite(&mut harness, &path);
    harness.get_by_label("▶ Run against vkperft").click();
    step_until(&mut harness, "the suite's first job", |_| {
        jobs.load(Ordering::SeqCst) == 1
    });
    assert!(!run_button_enabled(&harness));
    assert!(shows(
        &harness,
        "A suite runs against vkperft on this engine"
    ));
    open.store(true, Ordering::SeqCst);
    step_until(&mut harness, "the suite's results", suite_done);
    assert!(shows(&harness, "6 of 6 done: 6 passed, 0 failed"));
    assert_eq!(jobs.load(Ordering::SeqCst), 6);
    assert!(run_button_enabled(&harness));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the window's run", |h| {
        idle(h) && h.state().state().levels[0].result.is_some()
    });
    assert_eq!(jobs.load(Ordering::SeqCst), 7);
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
