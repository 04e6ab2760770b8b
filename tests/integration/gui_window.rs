//! The window as users drive it at the sizes they use: results that stay in view, messages
//! that belong to one result, Cancel that stops the user's engine too, the fast table's false
//! hits explained where the total is shown (published value or not), and two history rows
//! compared.

use super::gui::{
    buggy_engine, harness, idle, replace_fen, run_button_enabled, shows, step_until, test_settings,
};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vkperft::app::{EngineKind, Settings, VkperftApp};
use vkperft::backend::Device;
use vkperft::chess::fen;
use vkperft::tt::TtMode;

fn harness_sized(settings: Settings, size: [f32; 2]) -> Harness<'static, VkperftApp> {
    Harness::builder()
        .with_size(size)
        .with_context_setup(VkperftApp::install_fonts)
        .build_ui_state(
            |ui, app: &mut VkperftApp| app.show(ui),
            VkperftApp::new(settings),
        )
}

fn run_to_result(harness: &mut Harness<'static, VkperftApp>, runs: usize) {
    harness.get_by_label("▶ Run").click();
    step_until(harness, "the result", |h| {
        idle(h) && h.state().state().history.len() == runs
    });
}

/// A Vulkan device's long name on the result's Run line neither widens the results panel nor
/// pushes the divide counts out of view.
#[test]
fn a_vulkan_named_result_keeps_its_counts_in_view() {
    let mut harness = harness(test_settings(3));
    run_to_result(&mut harness, 1);
    let app = harness.state_mut().state_mut();
    let level = app.levels.last_mut().expect("the root level");
    let mut result = (**level.result.as_ref().expect("a result")).clone();
    result.device = Device::Vulkan {
        name: "NVIDIA GeForce RTX 4090 Laptop GPU (a very long device name, driver 560.35.03)"
            .to_string(),
    };
    level.result = Some(Arc::new(result));
    harness.step();
    harness.step();
    let results = harness.state().panel_rects().results;
    let counts: Vec<_> = harness
        .query_all_by_label("380")
        .map(|node| node.rect())
        .filter(|rect| results.intersects(*rect))
        .collect();
    assert!(!counts.is_empty(), "the divide's counts are shown");
    for rect in counts {
        assert!(
            results.contains_rect(rect),
            "a count at {rect:?} is not within the results at {results:?}"
        );
    }
    assert!(
        harness
            .query_all_by_label_contains("RTX 4090")
            .all(|node| node.rect().max.x <= results.max.x),
        "the device name is cut at the panel's edge"
    );
}

/// The engine's verdict belongs to the result it was about: a new run clears it.
#[test]
fn a_new_run_clears_the_previous_runs_banners() {
    let mut harness = harness(Settings {
        engine: buggy_engine("none"),
        engine_kind: EngineKind::Uci,
        ..test_settings(2)
    });
    harness.get_by_label("Find the bug").click();
    step_until(&mut harness, "the walk's end", |h| {
        let app = h.state().state();
        !app.engine_check.busy && app.engine_check.finding.is_some()
    });
    assert!(shows(&harness, "Your engine agrees at depth 2"));
    replace_fen(
        &mut harness,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
    run_to_result(&mut harness, 1);
    assert!(!shows(&harness, "Your engine agrees"), "a stale banner");
    assert!(harness.state().state().engine_check.finding.is_none());
}

/// A UCI engine that answers the handshake and `isready`, then sleeps on `go perft`; it
/// writes its process id and, once asked `go`, a marker file.
fn sleeping_engine(dir: &std::path::Path) -> String {
    let script = dir.join("sleeping-engine.sh");
    let text = format!(
        "#!/bin/sh\necho $$ > '{pid}'\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo uciok ;;\n    isready) echo readyok ;;\n    go*) : > '{go}'; sleep 600 ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n",
        pid = dir.join("pid").display(),
        go = dir.join("go").display()
    );
    std::fs::write(&script, text).expect("writing the engine script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("making the script executable");
    format!("SLEEPY=1 {}", script.display())
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
fn process_ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Cancel while the user's engine is asked: the panel comes back at once, the engine's
/// process is killed, and the message names the request it was answering. The engine runs
/// through the shell, so its environment prefix works.
#[test]
fn cancel_kills_an_engine_that_is_slow_to_answer() {
    let dir = std::env::temp_dir().join(format!("vkperft-gui-cancel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut harness = harness(Settings {
        engine: sleeping_engine(&dir),
        engine_kind: EngineKind::Uci,
        ..test_settings(3)
    });
    run_to_result(&mut harness, 1);
    harness.get_by_label("Compare").click();
    step_until(&mut harness, "the engine to be asked `go perft`", |_| {
        dir.join("go").is_file()
    });
    assert!(harness.state().state().engine_check.busy);
    assert!(!run_button_enabled(&harness));
    let pid = std::fs::read_to_string(dir.join("pid")).expect("the engine's pid");
    let pid = pid.trim();
    harness.get_by_label("■ Cancel").click();
    harness.step();
    harness.step();
    assert!(!harness.state().state().engine_check.busy);
    assert!(run_button_enabled(&harness), "the run panel is back");
    assert!(shows(&harness, "was stopped while answering `go perft 3`"));
    // The kill is sent at the Cancel; the bound only ends a test whose engine was never killed,
    // as generous as step_until's.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !process_ended(pid) {
        assert!(Instant::now() < deadline, "the engine {pid} still runs");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `fast` total that differs from the published value at 8 verifier bits says how many
/// false hits the model expected and offers a rerun in an exact mode, which then agrees.
#[test]
fn a_wrong_fast_total_explains_its_expected_false_hits() {
    let mut harness = harness(Settings {
        tt_mode: TtMode::Fast,
        verifier_bits: 8,
        tt_mb: 1,
        threads: 1,
        ..test_settings(5)
    });
    run_to_result(&mut harness, 1);
    let nodes = harness.state().state().history[0].nodes;
    assert_ne!(
        nodes, 4_865_609,
        "8 verifier bits give false hits at depth 5"
    );
    assert!(shows(&harness, "✘ differs"));
    assert!(shows(&harness, "false hits with 8 verifier bits"));
    harness.get_by_label("Rerun in certify").click();
    step_until(&mut harness, "the certify run", |h| {
        idle(h) && h.state().state().history.len() == 2
    });
    let app = harness.state().state();
    assert_eq!(app.history[1].nodes, 4_865_609);
    assert_eq!(app.history[1].tt_mode, TtMode::Certify);
    assert!(app.history[1].false_hits.is_some_and(|hits| hits > 0));
    assert!(shows(&harness, "caught, corrected"));
    assert!(!shows(&harness, "false hits with 8 verifier bits"));
}

/// The sizes the window is made for: the default, a laptop's half screen, the smallest.
const SIZES: [[f32; 2]; 3] = [[1280.0, 800.0], [1000.0, 650.0], [800.0, 560.0]];

/// Whether `inner` lies within `outer` (to a rounding of a point).
fn within(inner: egui::Rect, outer: egui::Rect) -> bool {
    outer.expand(0.5).contains_rect(inner)
}

/// The nodes labelled exactly `label` that lie in `panel`.
fn labelled_in(
    harness: &Harness<'static, VkperftApp>,
    label: &str,
    panel: egui::Rect,
) -> Vec<egui::Rect> {
    harness
        .query_all_by_label(label)
        .map(|node| node.rect())
        .filter(|rect| panel.intersects(*rect))
        .collect()
}

/// The value beside the live counter named `name`: every node on its row right of the name
/// lies whole within the live panel, and there is one.
fn assert_live_row(harness: &Harness<'static, VkperftApp>, name: &str, live: egui::Rect) {
    let names = labelled_in(harness, name, live);
    let [row] = names[..] else {
        panic!("one `{name}` in the live panel at {live:?}, found {names:?}");
    };
    assert!(within(row, live), "`{name}` at {row:?} is cut by {live:?}");
    let values: Vec<egui::Rect> = harness
        .query_all(egui_kittest::kittest::By::new().predicate(|node| {
            let rect = node.bounding_box().map_or(egui::Rect::NOTHING, |b| {
                egui::Rect::from_min_max(
                    egui::pos2(b.x0 as f32, b.y0 as f32),
                    egui::pos2(b.x1 as f32, b.y1 as f32),
                )
            });
            rect.min.x >= row.max.x && rect.center().y > row.min.y && rect.center().y < row.max.y
        }))
        .map(|node| node.rect())
        .filter(|rect| rect.min.x < live.max.x)
        .collect();
    assert!(!values.is_empty(), "no value beside `{name}`");
    for value in values {
        assert!(
            within(value, live),
            "`{name}`'s value at {value:?} is cut by the live panel at {live:?}"
        );
    }
}

/// At each size, after a certify run: every live counter with its value, the total, the
/// divide table's first rows, the Run button and every History column title lie within
/// their panels and the window, nothing cut, without dragging anything.
#[test]
fn every_value_is_in_view_at_each_size() {
    for size in SIZES {
        let mut harness = harness_sized(
            Settings {
                tt_mode: TtMode::Certify,
                ..test_settings(3)
            },
            size,
        );
        run_to_result(&mut harness, 1);
        let panels = harness.state().panel_rects();
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size.into());
        for (name, panel) in [
            ("editor", panels.editor),
            ("run", panels.run),
            ("live", panels.live),
            ("results", panels.results),
            ("history", panels.history),
        ] {
            assert!(
                within(panel, window),
                "{size:?}: the {name} panel {panel:?}"
            );
        }
        for name in [
            "Nodes",
            "Elapsed",
            "Nodes/second",
            "TT occupancy",
            "Probes",
            "Hits",
            "Stores",
            "Overwrites",
            "Payload skips",
            "False hits",
            "Expected by fast",
            "Leaf count-ops",
            "Counted, not made",
            "Expanded",
        ] {
            assert_live_row(&harness, name, panels.live);
        }
        let total = labelled_in(&harness, "8,902", panels.results);
        assert!(
            !total.is_empty() && total.iter().all(|rect| within(*rect, panels.results)),
            "{size:?}: the total {total:?} in {:?}",
            panels.results
        );
        // The divide's first rows by move: a2a3 380, a2a4 420, b1a3 400.
        for (mv, count) in [("a2a3", "380"), ("a2a4", "420"), ("b1a3", "400")] {
            for text in [mv, count] {
                let found = labelled_in(&harness, text, panels.results);
                assert!(
                    !found.is_empty() && found.iter().all(|rect| within(*rect, panels.results)),
                    "{size:?}: `{text}` at {found:?} is not within the results at {:?}",
                    panels.results
                );
            }
        }
        let run = harness.get_by_role_and_label(Role::Button, "▶ Run").rect();
        assert!(within(run, panels.run), "{size:?}: Run at {run:?}");
        for title in [
            "#",
            "position",
            "nodes",
            "depth",
            "nodes/s",
            "time",
            "table",
            "false hits",
            "backend",
            "seed",
        ] {
            let found = labelled_in(&harness, title, panels.history);
            assert!(
                !found.is_empty() && found.iter().all(|rect| within(*rect, panels.history)),
                "{size:?}: History's `{title}` at {found:?} is cut by {:?}",
                panels.history
            );
        }
    }
}

/// Two ticked history rows are compared: totals, rates, false hits and the divide; a row's
/// settings load back into the run panel.
#[test]
fn history_compares_two_rows_and_loads_one() {
    let mut harness = harness(test_settings(2));
    run_to_result(&mut harness, 1);
    harness.get_by_label("certify").click();
    harness.step();
    run_to_result(&mut harness, 2);
    harness.get_by_role_and_label(Role::CheckBox, "#1").click();
    harness.step();
    harness.get_by_role_and_label(Role::CheckBox, "#2").click();
    harness.step();
    harness.step();
    assert_eq!(harness.state().state().history_selection, vec![0, 1]);
    assert!(shows(&harness, "#1 and #2: one search"));
    assert!(shows(&harness, "Equal totals; all 20 moves agree"));
    assert!(shows(&harness, "not counted (fast)") && shows(&harness, "0 caught"));
    assert!(shows(&harness, "nodes/s"));

    // The history's first Load (the Chess960 controls have one too).
    let history = harness.state().panel_rects().history;
    harness
        .get_all_by_label("Load")
        .find(|node| history.contains_rect(node.rect()))
        .expect("the first row's Load")
        .click();
    harness.step();
    harness.step();
    let app = harness.state().state();
    assert_eq!(app.settings.tt_mode, TtMode::Fast);
    assert_eq!(app.editor.fen_text(), fen::START_FEN);
    assert_eq!(app.settings.depth, 2);
}

/// The divide table opens at its top for each new result, and the live panel follows the
/// breadcrumb back to the root's run.
#[test]
fn new_results_open_at_the_top_and_live_follows_the_breadcrumb() {
    let mut harness = harness(test_settings(3));
    run_to_result(&mut harness, 1);
    let header = |h: &Harness<'static, VkperftApp>| {
        h.get_by_role_and_label(Role::Button, "Move ▲").rect().min.y
    };
    let top = header(&harness);
    harness.get_by_label("a2a3").hover();
    harness.step();
    for _ in 0..4 {
        harness.get_by_label("a2a3").scroll_down();
        harness.step();
    }
    harness.step();
    assert!(header(&harness) < top, "the divide table scrolled");
    run_to_result(&mut harness, 2);
    assert_eq!(header(&harness), top, "the new result opens at the top");
    harness.get_by_label("a2a3").click();
    step_until(&mut harness, "the subtree's result", |h| {
        idle(h) && h.state().state().history.len() == 3
    });
    harness.get_by_label("root").click();
    harness.step();
    harness.step();
    let live = harness
        .state()
        .state()
        .live
        .as_ref()
        .expect("the live panel");
    assert_eq!(live.progress.as_ref().map(|p| p.nodes), Some(8_902));
}

/// Kiwipete with black to move (no published value) at depth 4, run `fast` with 8 verifier
/// bits: the result itself warns that vkperft's count may be wrong and offers the reruns,
/// Compare does not call the engine wrong while vkperft's count is at risk, and the narrowed
/// verifier shows as a badge beside the TT mode. Loading the run from the history restores
/// its 8 bits for that run, but the settings saved for later sessions keep the user's 64.
#[test]
fn an_unpublished_fast_run_at_risk_warns_and_does_not_blame_the_engine() {
    const KIWIPETE_BLACK: &str =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
    let mut harness = harness(Settings {
        fen: KIWIPETE_BLACK.to_string(),
        tt_mode: TtMode::Fast,
        verifier_bits: 8,
        tt_mb: 1,
        threads: 1,
        engine: buggy_engine("none"),
        engine_kind: EngineKind::Uci,
        ..test_settings(4)
    });
    assert!(shows(&harness, "⚠ 8-bit verifier"), "the badge");
    run_to_result(&mut harness, 1);
    let position = vkperft::chess::Position::from_fen(KIWIPETE_BLACK).expect("a FEN");
    let exact = vkperft::chess::perft::perft(&position, 4);
    let nodes = harness.state().state().history[0].nodes;
    assert_ne!(nodes, exact, "8 verifier bits give false hits at depth 4");
    assert!(shows(&harness, "vkperft's count may be wrong"));
    assert!(shows(&harness, "Rerun in verified") && shows(&harness, "Rerun in certify"));

    harness.get_by_label("Compare").click();
    step_until(&mut harness, "the engine's divide", |h| {
        let app = h.state().state();
        !app.engine_check.busy && app.levels[0].engine.is_some()
    });
    let engine = format!("Engine at depth 4: {}", vkperft::count::thousands(exact));
    assert!(shows(
        &harness,
        &format!("{engine}, differs; vkperft's count may be wrong: rerun in verified")
    ));
    assert!(
        harness
            .query_by_label(&format!("{engine}, differs"))
            .is_none(),
        "the engine is not called wrong"
    );

    harness.state_mut().state_mut().settings.verifier_bits = 64;
    harness.step();
    assert!(!shows(&harness, "⚠ 8-bit verifier"));
    let history = harness.state().panel_rects().history;
    harness
        .get_all_by_label("Load")
        .find(|node| history.contains_rect(node.rect()))
        .expect("the row's Load")
        .click();
    harness.step();
    harness.step();
    let app = harness.state().state();
    assert_eq!(app.settings.verifier_bits, 8, "the loaded run's settings");
    assert_eq!(
        app.settings_to_save().verifier_bits,
        64,
        "kept for later sessions"
    );
    assert!(shows(&harness, "⚠ 8-bit verifier"));
}

/// The keyboard: Ctrl+Enter runs, the arrows and Enter walk into the divide table's chosen
/// move, Backspace walks back, F flips the board, F1 opens the list, Esc cancels a run.
#[test]
fn the_keyboard_runs_walks_and_cancels() {
    use egui::{Key, Modifiers};
    let mut harness = harness(test_settings(3));
    harness.key_combination_modifiers(Modifiers::COMMAND, &[Key::Enter]);
    step_until(&mut harness, "the run Ctrl+Enter started", |h| {
        idle(h) && h.state().state().history.len() == 1
    });
    // The divide by move: a2a3, a2a4, ...; two rows down is a2a4.
    harness.key_press(Key::ArrowDown);
    harness.key_press(Key::ArrowDown);
    harness.step();
    assert_eq!(harness.state().state().divide_cursor, Some(1));
    harness.key_press(Key::Enter);
    step_until(&mut harness, "the subtree's run", |h| {
        idle(h) && h.state().state().history.len() == 2
    });
    let app = harness.state().state();
    assert_eq!(app.levels.len(), 2);
    assert_eq!(
        app.levels[1].via.map(|mv| mv.to_string()).as_deref(),
        Some("a2a4")
    );
    assert_eq!(app.history[1].name, "startpos a2a4");
    harness.key_press(Key::Backspace);
    harness.step();
    assert_eq!(harness.state().state().levels.len(), 1);

    harness.key_press(Key::F);
    harness.step();
    assert!(harness.state().state().controls.flipped);
    harness.key_press(Key::F1);
    harness.step();
    assert!(
        shows(&harness, "Walk back one move"),
        "the Help window lists the keys"
    );

    harness.state_mut().state_mut().settings.depth = 9;
    harness.state_mut().state_mut().settings.tt_mode = TtMode::Off;
    harness.key_combination_modifiers(Modifiers::COMMAND, &[Key::Enter]);
    harness.step();
    assert!(!idle(&harness), "the deep run started");
    harness.key_press(Key::Escape);
    step_until(&mut harness, "the cancel", idle);
    assert!(shows(&harness, "Cancelled."));
}

/// The history outlives the window: runs written to the data folder are there at the next
/// start, under their names; ticking rows leaves every row where it was.
#[test]
fn the_history_survives_a_restart_and_its_rows_stay_put() {
    let dir = std::env::temp_dir().join(format!("vkperft-gui-history-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = || VkperftApp::new(test_settings(2)).keep_history_in(&dir);
    let mut first = super::gui::harness_of(app());
    run_to_result(&mut first, 1);
    first.get_by_label("certify").click();
    first.step();
    run_to_result(&mut first, 2);
    drop(first);

    let mut harness = super::gui::harness_of(app());
    harness.step();
    let app = harness.state().state();
    assert_eq!(app.history.len(), 2);
    assert_eq!(app.history_note, None);
    assert_eq!(app.history[1].name, "startpos");
    assert_eq!(app.history[1].tt_mode, TtMode::Certify);
    assert_eq!(app.history[1].nodes, 400);

    let place = |h: &Harness<'static, VkperftApp>, label: &str| {
        h.get_by_role_and_label(Role::CheckBox, label).rect()
    };
    let before = (place(&harness, "#1"), place(&harness, "#2"));
    harness.get_by_role_and_label(Role::CheckBox, "#1").click();
    harness.step();
    harness.get_by_role_and_label(Role::CheckBox, "#2").click();
    harness.step();
    harness.step();
    assert!(shows(&harness, "#1 and #2: one search"));
    assert_eq!((place(&harness, "#1"), place(&harness, "#2")), before);
    let _ = std::fs::remove_dir_all(&dir);
}
