//! The window's behaviour, driven through egui_kittest: widgets are found by their accessible
//! labels, clicked and typed into, and frames are stepped until the engine's events arrive.

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use vkperft::app::{EngineKind, Settings, VkperftApp};
use vkperft::backend::RunError;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{fen, Move, MoveKind};
use vkperft::engine::{BackendProvider, Backends, Job, Resolved};
use vkperft::hunt::Difference;
use vkperft::tt::TtMode;

const START_AFTER_A2A3: &str = "rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - 0 1";

pub(crate) fn harness(settings: Settings) -> Harness<'static, VkperftApp> {
    harness_of(VkperftApp::new(settings))
}

pub(crate) fn harness_of(app: VkperftApp) -> Harness<'static, VkperftApp> {
    Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(VkperftApp::install_fonts)
        .build_ui_state(|ui, app: &mut VkperftApp| app.show(ui), app)
}

/// This machine's backends, except that the first job panics (a bug) when it asks for one.
struct FirstJobPanics {
    jobs: usize,
    backends: Backends,
}

impl BackendProvider for FirstJobPanics {
    fn backend_for(&mut self, job: &Job, cancel: &AtomicBool) -> Result<Resolved<'_>, RunError> {
        self.jobs += 1;
        assert!(self.jobs > 1, "a bug in the first job");
        self.backends.backend_for(job, cancel)
    }

    fn reset(&mut self) {
        self.backends.reset();
    }
}

/// Small runs: a small table and two threads.
pub(crate) fn test_settings(depth: u32) -> Settings {
    Settings {
        depth,
        threads: 2,
        tt_mb: 16,
        ..Settings::default()
    }
}

/// Steps frames until `done` holds, sleeping between frames so the engine can report.
pub(crate) fn step_until(
    harness: &mut Harness<'static, VkperftApp>,
    what: &str,
    done: impl Fn(&Harness<'static, VkperftApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(120);
    harness.step();
    while !done(harness) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.step();
}

pub(crate) fn idle(harness: &Harness<'static, VkperftApp>) -> bool {
    !harness.state().state().is_running()
}

pub(crate) fn replace_fen(harness: &mut Harness<'static, VkperftApp>, text: &str) {
    harness.get_by_label("FEN").click();
    harness.step();
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.step();
    harness.event(egui::Event::Paste(text.to_string()));
    harness.step();
    harness.step();
}

/// Whether some widget's label contains `text` (the run panel repeats the editor's error).
pub(crate) fn shows(harness: &Harness<'static, VkperftApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).count() > 0
}

pub(crate) fn run_button_enabled(harness: &Harness<'static, VkperftApp>) -> bool {
    !harness
        .get_by_role_and_label(Role::Button, "▶ Run")
        .accesskit_node()
        .is_disabled()
}

#[test]
fn pasted_fen_sets_the_board_and_field() {
    let mut harness = harness(test_settings(3));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    replace_fen(&mut harness, kiwipete);
    let app = harness.state().state();
    assert_eq!(app.editor.fen_text(), kiwipete);
    let parsed = fen::parse(kiwipete).expect("Kiwipete parses");
    assert_eq!(app.editor.setup().board, parsed.board);
    assert!(app.editor.error().is_none());
    assert!(run_button_enabled(&harness));
    assert_eq!(
        harness.get_by_label("FEN").value().as_deref(),
        Some(kiwipete)
    );
}

#[test]
fn invalid_fen_shows_its_reason_and_disables_run() {
    let mut harness = harness(test_settings(3));
    replace_fen(
        &mut harness,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
    );
    assert!(shows(
        &harness,
        "invalid FEN: placement field: rank 1 has 7 squares, expected 8"
    ));
    assert!(!run_button_enabled(&harness));

    replace_fen(&mut harness, "8/8/8/8/8/8/8/K7 w - - 0 1");
    assert!(shows(&harness, "illegal position: black has no king"));
    assert!(!run_button_enabled(&harness));

    replace_fen(&mut harness, fen::START_FEN);
    assert!(run_button_enabled(&harness));
}

#[test]
fn start_position_depth_3_matches_the_published_value() {
    let mut harness = harness(test_settings(3));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && !h.state().state().history.is_empty()
    });
    assert!(harness.query_all_by_label("8,902").count() >= 1);
    harness.get_by_label("✔ published");
    assert_eq!(
        harness.state().state().history[0].matches_reference,
        Some(true)
    );
}

#[test]
fn runs_in_two_modes_make_two_history_rows() {
    let mut harness = harness(test_settings(3));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the first result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    harness.get_by_label("certify").click();
    harness.step();
    assert_eq!(harness.state().state().settings.tt_mode, TtMode::Certify);
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the second result", |h| {
        idle(h) && h.state().state().history.len() == 2
    });
    let history = &harness.state().state().history;
    assert_eq!(history[0].tt_mode, TtMode::Fast);
    assert_eq!(history[1].tt_mode, TtMode::Certify);
    assert_eq!(history[1].nodes, 8902);
    assert_eq!(history[1].false_hits, Some(0));
    assert_eq!(harness.get_all_by_label("8,902 ✔").count(), 2);
}

#[test]
fn the_live_panel_shows_the_work_counters_of_a_run() {
    let mut harness = harness(test_settings(3));
    harness.get_by_label("off").click();
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    assert!(shows(&harness, "Leaf count-ops"));
    // perft(3) without a table counts the moves of perft(2) positions.
    assert!(shows(&harness, "400"), "the leaf count-ops of perft(3)");
}

#[test]
fn a_run_that_panics_shows_its_error_and_the_next_run_works() {
    let backends = FirstJobPanics {
        jobs: 0,
        backends: Backends::default(),
    };
    let mut harness = harness_of(VkperftApp::with_backends(
        test_settings(3),
        Box::new(backends),
    ));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the failure", idle);
    assert!(
        shows(&harness, "internal error: a bug in the first job"),
        "no error shown"
    );
    assert!(harness.state().state().history.is_empty());
    assert!(run_button_enabled(&harness));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the second run's result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    assert_eq!(harness.state().state().history[0].nodes, 8_902);
}

#[test]
fn cancelling_a_long_run_returns_to_idle() {
    let mut settings = test_settings(9);
    settings.tt_mode = TtMode::Off;
    let mut harness = harness(settings);
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the first progress report", |h| {
        h.state()
            .state()
            .live
            .as_ref()
            .is_some_and(|live| live.progress.is_some())
    });
    assert!(harness.state().state().is_running());
    assert!(!run_button_enabled(&harness));
    harness.get_by_label("■ Cancel").click();
    step_until(&mut harness, "the cancellation", idle);
    harness.get_by_label("Cancelled.");
    assert!(run_button_enabled(&harness));
    assert!(harness.state().state().history.is_empty());
}

#[test]
fn clicking_a_divide_row_makes_the_move_and_searches_its_subtree() {
    let mut harness = harness(test_settings(3));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the root result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    harness.get_by_label("a2a3").click();
    step_until(&mut harness, "the subtree result", |h| {
        idle(h) && h.state().state().history.len() == 2
    });
    let app = harness.state().state();
    assert_eq!(app.editor.fen_text(), START_AFTER_A2A3);
    assert_eq!(app.levels.len(), 2);
    assert_eq!(app.history[1].nodes, 380);
    assert!(harness.query_all_by_label("380").count() >= 1);

    harness.get_by_label("root").click();
    harness.step();
    harness.step();
    let app = harness.state().state();
    assert_eq!(app.levels.len(), 1);
    assert_eq!(app.editor.fen_text(), fen::START_FEN);
}

#[test]
fn divide_sorts_by_count() {
    let mut harness = harness(test_settings(2));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    harness.get_by_role_and_label(Role::Button, "Nodes").click();
    harness.step();
    harness.step();
    assert_eq!(
        harness.state().state().divide_order,
        vkperft::app::DivideOrder::NodesDescending
    );
    harness.get_by_role_and_label(Role::Button, "Nodes ▼");
}

/// The plan window shows a plan folder's progress and follows a run that writes to it.
#[test]
fn the_plan_window_follows_a_run() {
    use vkperft::work::{
        run_units, split, Method, PlanFolder, SplitRequest, TableStats, UnitOutcome, WorkError,
    };
    let dir = std::env::temp_dir().join(format!("vkperft-gui-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let plan_dir = dir.join("plan");
    split(&SplitRequest {
        root: vkperft::chess::Position::startpos(),
        depth: 3,
        split_ply: 1,
        shards: 4,
        out: plan_dir.clone(),
        memory_bytes: 1 << 20,
        scratch_parent: None,
        interrupted: vkperft::unique::never_interrupted,
    })
    .expect("a plan");

    let mut harness = harness(test_settings(1));
    harness.get_by_label("Plan…").click();
    step_until(&mut harness, "the plan window", |h| shows(h, "Plan folder"));
    harness.get_by_label("Plan folder").click();
    harness.step();
    harness.event(egui::Event::Paste(plan_dir.to_string_lossy().into_owned()));
    harness.step();
    harness.get_by_label("Watch").click();
    harness.step();
    harness.step();
    assert!(shows(&harness, "0 of 20"), "the plan's units");

    // Another writer finishes shard 0 (five units) while the window watches.
    let plan = PlanFolder::open(&plan_dir).expect("the plan");
    let method = Method {
        mode: vkperft::tt::TtMode::Off,
        verifier_bits: vkperft::tt::DEFAULT_VERIFIER_BITS,
        seed: 0,
    };
    let run_shard = |shard: usize| {
        run_units(&plan, &[shard], &method, |unit, _| {
            let position = vkperft::chess::Position::from_fen(&unit.fen).expect("a unit FEN");
            Ok::<_, WorkError>(UnitOutcome {
                nodes: vkperft::chess::perft::perft(&position, unit.depth),
                method,
                device: vkperft::backend::Device::Cpu { threads: 1 },
                table: TableStats::default(),
                seconds: 0.01,
                move_stats: None,
            })
        })
        .expect("the shard runs")
    };
    assert_eq!(run_shard(0).computed, 5);
    step_until(&mut harness, "the window reads the journal again", |h| {
        shows(h, "5 of 20")
    });
    assert!(shows(&harness, "1 of 4"), "one shard complete");
    assert!(
        shows(&harness, "declared exact"),
        "the trust of the units done: their records declare --tt off"
    );
    assert!(
        !shows(&harness, "Merge"),
        "no merge before every unit has a result"
    );

    // The other shards done, the window merges the plan and marks it against the published
    // value.
    for shard in 1..4 {
        run_shard(shard);
    }
    step_until(&mut harness, "every unit done", |h| shows(h, "20 of 20"));
    harness.get_by_label("Merge").click();
    harness.step();
    harness.step();
    assert!(shows(&harness, "8,902 nodes"), "the merged total");
    assert!(
        shows(&harness, "✔ published"),
        "marked against the published value"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The test engine with one bug (`examples/buggy_engine.rs`, built by `cargo test`).
pub(crate) fn buggy_engine(bug: &str) -> String {
    let engine = std::path::Path::new(env!("CARGO_BIN_EXE_vkperft"))
        .parent()
        .expect("the binary's folder")
        .join("examples")
        .join("buggy_engine");
    assert!(engine.is_file(), "{}", engine.display());
    format!("{} --bug {bug}", engine.display())
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// "Find the bug" walks to the position where the engine misses its en passant captures: each
/// comparison is a level of the breadcrumb, the board ends on that position with the missing
/// moves marked, and the divide table shows the engine's counts beside vkperft's.
#[test]
fn find_the_bug_ends_on_the_wrong_position_with_its_moves_marked() {
    let mut harness = harness(Settings {
        fen: KIWIPETE.to_string(),
        engine: buggy_engine("no-en-passant"),
        engine_kind: EngineKind::Uci,
        ..test_settings(4)
    });
    harness.get_by_label("Find the bug").click();
    step_until(&mut harness, "the walk's end", |h| {
        let app = h.state().state();
        !app.engine_check.busy && app.engine_check.finding.is_some()
    });
    let app = harness.state().state();
    assert_eq!(app.engine_check.error, None);
    let finding = app.engine_check.finding.clone().expect("a finding");
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
    assert_eq!(app.editor.fen_text(), finding.position.to_fen());
    let marks = app.engine_check.marks(app.editor.position());
    assert_eq!(marks.len(), missing.len());
    assert!(marks.iter().all(|&(_, _, missing)| missing));
    assert!(shows(&harness, "Bug found after"));
    for mv in &finding.path {
        assert!(
            harness.query_all_by_label(&mv.to_string()).count() >= 1,
            "{mv} in the breadcrumb"
        );
    }
    assert!(harness.query_all_by_label("Engine").count() >= 1);
}

/// Compare puts the engine's counts beside a finished run's; an engine that agrees says so.
#[test]
fn compare_shows_the_engine_column() {
    let mut harness = harness(Settings {
        engine: buggy_engine("none"),
        engine_kind: EngineKind::Uci,
        ..test_settings(3)
    });
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    harness.get_by_label("Compare").click();
    step_until(&mut harness, "the engine's divide", |h| {
        let app = h.state().state();
        !app.engine_check.busy && app.levels[0].engine.is_some()
    });
    let app = harness.state().state();
    let engine = app.levels[0].engine.as_ref().expect("compared");
    assert_eq!(engine.total(), 8_902);
    assert!(shows(&harness, "Engine at depth 3: 8,902, agrees"));
}

/// Compare asks the Depth field's depth, not the shown result's, and says which: with a
/// depth-3 result on screen and Depth 2, the engine is asked `go perft 2`, and the shown
/// level becomes the comparison at depth 2 with vkperft's exact divide.
#[test]
fn compare_asks_the_depth_field_and_says_it() {
    let mut harness = harness(Settings {
        engine: buggy_engine("none"),
        engine_kind: EngineKind::Uci,
        ..test_settings(3)
    });
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    harness.state_mut().state_mut().settings.depth = 2;
    harness.step();
    harness.get_by_label("Compare").click();
    harness.step();
    assert_eq!(
        harness.state().state().engine_check.request,
        "Asking your engine for its divide at depth 2…"
    );
    step_until(&mut harness, "the engine's divide", |h| {
        let app = h.state().state();
        !app.engine_check.busy && app.levels[0].engine.is_some()
    });
    let app = harness.state().state();
    let level = &app.levels[0];
    assert_eq!(level.depth, 2);
    assert_eq!(
        level.engine.as_ref().map(|engine| engine.total()),
        Some(400)
    );
    assert_eq!(
        level
            .expected
            .as_ref()
            .map(|divide| divide.values().sum::<u128>()),
        Some(400)
    );
    assert!(shows(&harness, "Engine at depth 2: 400, agrees"));
}

const CASTLES_BOTH_WAYS: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

fn checkbox<'h>(
    harness: &'h Harness<'static, VkperftApp>,
    label: &'h str,
) -> egui_kittest::Node<'h> {
    harness.get_by_role_and_label(Role::CheckBox, label)
}

/// The Chess960 toggle writes castling rights by the rooks' files and castles as the king
/// taking its rook, in the FEN field and in the divide table.
#[test]
fn the_chess960_toggle_writes_shredder_fen_and_king_to_rook_castles() {
    let mut harness = harness(Settings {
        fen: CASTLES_BOTH_WAYS.to_string(),
        ..test_settings(1)
    });
    checkbox(&harness, "Chess960").click();
    harness.step();
    harness.step();
    let shredder = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
    assert_eq!(harness.state().state().editor.fen_text(), shredder);
    assert_eq!(
        harness.get_by_label("FEN").value().as_deref(),
        Some(shredder)
    );
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    assert_eq!(harness.state().state().history[0].nodes, 26);
    for castle in ["e1h1", "e1a1"] {
        assert_eq!(harness.query_all_by_label(castle).count(), 1, "{castle}");
    }
    for castle in ["e1g1", "e1c1"] {
        assert_eq!(harness.query_all_by_label(castle).count(), 0, "{castle}");
    }

    checkbox(&harness, "Chess960").click();
    harness.step();
    harness.step();
    assert_eq!(harness.state().state().editor.fen_text(), CASTLES_BOTH_WAYS);
}

/// A start position loads by its number, in Shredder-FEN, and a run of it is marked with its
/// published perft.
#[test]
fn a_960_start_position_loads_by_number_and_matches_its_published_perft() {
    let mut harness = harness(test_settings(2));
    harness.get_by_label("960 start").set_value_accesskit(0.0);
    harness.step();
    harness.get_by_role_and_label(Role::Button, "Load").click();
    harness.step();
    harness.step();
    let expected = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    assert_eq!(harness.state().state().editor.fen_text(), expected);
    assert_eq!(
        harness.get_by_label("FEN").value().as_deref(),
        Some(expected)
    );
    assert!(harness.state().state().editor.chess960());
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    assert_eq!(harness.state().state().history[0].nodes, 400);
    assert_eq!(
        harness.state().state().history[0].matches_reference,
        Some(true)
    );
    harness.get_by_label("✔ published");
}

/// In Chess960 each rook beside its king has its own checkbox, named by its file.
#[test]
fn per_rook_checkboxes_grant_and_revoke_the_right_of_their_rook() {
    let mut harness = harness(Settings {
        fen: "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1".to_string(),
        ..test_settings(1)
    });
    harness.step();
    let castling = |h: &Harness<'static, VkperftApp>| {
        h.state()
            .state()
            .editor
            .fen_text()
            .split_whitespace()
            .nth(2)
            .map(str::to_string)
    };
    checkbox(&harness, "H").click();
    harness.step();
    assert_eq!(castling(&harness).as_deref(), Some("Fhf"));
    checkbox(&harness, "f").click();
    harness.step();
    assert_eq!(castling(&harness).as_deref(), Some("Fh"));
    checkbox(&harness, "H").click();
    harness.step();
    assert_eq!(castling(&harness).as_deref(), Some("HFh"));
    assert_eq!(harness.query_all_by_label("K").count(), 0);

    // Granting a second rook on the same side of the king takes the right from the first.
    replace_fen(&mut harness, "4k3/8/8/8/8/8/8/1RK2RR1 w GB - 0 1");
    checkbox(&harness, "F").click();
    harness.step();
    assert_eq!(
        harness.state().state().editor.fen_text(),
        "4k3/8/8/8/8/8/8/1RK2RR1 w FB - 0 1"
    );
    assert!(harness.state().state().editor.error().is_none());
}

#[test]
fn random_loads_a_960_start_position() {
    let mut harness = harness(test_settings(1));
    harness
        .get_by_role_and_label(Role::Button, "Random")
        .click();
    harness.step();
    harness.step();
    let app = harness.state().state();
    let fen = app.editor.fen_text();
    assert!(
        vkperft::reference::chess960::start_positions()
            .iter()
            .any(|start| start.shredder_fen == fen),
        "{fen}"
    );
    assert!(app.editor.error().is_none());
    assert!(app.editor.chess960());

    // Clearing the board to set up another Chess960 position keeps the notation.
    harness.get_by_role_and_label(Role::Button, "Clear").click();
    harness.step();
    let editor = &harness.state().state().editor;
    assert_eq!(editor.fen_text(), "8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(editor.chess960());
}

/// The centre of `square` ("e2") on the unflipped board, which lies between the two palettes.
fn square_center(harness: &Harness<'static, VkperftApp>, square: &str) -> egui::Pos2 {
    let top = harness.get_by_label("black king").rect();
    let bottom = harness.get_by_label("white king").rect();
    // The board's side is its width: the space between the palettes less the item spacing.
    let spacing = (bottom.min.y - top.max.y) - (harness.state().panel_rects().editor.width());
    let board_top = top.max.y + spacing / 2.0;
    let side = bottom.min.y - spacing / 2.0 - board_top;
    let file = f32::from(square.as_bytes()[0] - b'a');
    let rank = f32::from(square.as_bytes()[1] - b'1');
    let step = side / 8.0;
    egui::pos2(
        top.min.x + (file + 0.5) * step,
        board_top + (7.0 - rank + 0.5) * step,
    )
}

/// Presses at `from`, moves to `to` in steps and releases there.
fn drag(harness: &mut Harness<'static, VkperftApp>, from: egui::Pos2, to: egui::Pos2) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    harness.event(egui::Event::PointerMoved(from));
    harness.step();
    harness.event(button(from, true));
    harness.step();
    for i in 1..=10 {
        harness.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 10.0),
        ));
        harness.step();
    }
    harness.event(button(to, false));
    harness.step();
    harness.step();
}

/// Dragging a board piece moves it, whether or not a palette piece is selected for clicks.
#[test]
fn dragging_a_board_piece_moves_it_with_or_without_a_palette_piece_selected() {
    let mut harness = harness(test_settings(1));
    harness.step();
    let (e2, e4) = (square_center(&harness, "e2"), square_center(&harness, "e4"));
    drag(&mut harness, e2, e4);
    let fen = harness.state().state().editor.fen_text().to_string();
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "),
        "{fen}"
    );
    harness.get_by_label("white queen").click();
    harness.step();
    harness.step();
    let (d2, d4) = (square_center(&harness, "d2"), square_center(&harness, "d4"));
    drag(&mut harness, d2, d4);
    let fen = harness.state().state().editor.fen_text().to_string();
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR "),
        "{fen}"
    );
}
