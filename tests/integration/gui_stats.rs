//! The window's move-type statistics: the box in the run panel, the table by depth under the
//! result with the wiki's values marked, and the divide table's columns per root move.

use crate::gui::{harness, idle, step_until, test_settings};
use egui_kittest::kittest::Queryable;
use std::time::{Duration, Instant};
use vkperft::app::{BackendSelection, Settings};
use vkperft::chess::fen::START_FEN;
use vkperft::chess::{Convention, MoveStat};
use vkperft::reference::move_stats::published_stats_for;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn a_run_with_statistics_shows_them_by_depth_and_per_move() {
    let mut harness = harness(test_settings(4));
    harness.get_by_label("Move types").click();
    harness.step();
    assert!(harness.state().state().settings.move_stats);
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && !h.state().state().history.is_empty()
    });
    let state = harness.state().state();
    let result = state.levels[0].result.as_ref().expect("a result");
    assert!(result.move_stats);
    // Every depth up to the run's, each equal to the wiki's start-position row.
    let depths: Vec<u32> = result.stats_by_depth.iter().map(|(d, _)| *d).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    for (depth, counts) in &result.stats_by_depth {
        for source in Convention::ALL {
            let published = published_stats_for(source, START_FEN, *depth).unwrap();
            assert_eq!(counts.nodes, published.nodes, "depth {depth}");
            for &(stat, theirs) in &published.stats {
                assert_eq!(counts.stats.get(stat), theirs, "depth {depth} {stat:?}");
            }
        }
    }
    assert_eq!(result.stats_by_depth[3].1, result.counts);
    // Copy JSON gives them too.
    let json = result.to_json(true);
    assert_eq!(json["stats_by_depth"][2]["nodes"], "8902");
    assert_eq!(json["stats_by_depth"][2]["stats"]["captures"], "34");
    // The table shows depth 4's captures (1,576) and checks without mates (461), and depth 3's
    // 8,902 nodes besides the summary's and the history's.
    harness.get_by_label("Move-type statistics");
    assert!(harness.query_all_by_label("1,576").count() >= 1);
    assert!(harness.query_all_by_label("461").count() >= 1);
    assert_eq!(harness.query_all_by_label("469").count(), 0);
    assert!(harness.query_all_by_label("8,902").count() >= 1);
    // One "Captures" heading (the table's) until the divide table adds its columns.
    assert_eq!(harness.query_all_by_label("Captures").count(), 1);
    harness.get_by_label("Statistics per move").click();
    harness.step();
    harness.step();
    assert!(harness.state().state().divide_stats);
    assert_eq!(harness.query_all_by_label("Captures").count(), 2);
}

#[test]
fn a_run_without_statistics_shows_no_table() {
    let mut harness = harness(test_settings(3));
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && !h.state().state().history.is_empty()
    });
    let state = harness.state().state();
    let result = state.levels[0].result.as_ref().expect("a result");
    assert!(!result.move_stats);
    assert!(result.stats_by_depth.is_empty());
    assert_eq!(
        harness.query_all_by_label("Move-type statistics").count(),
        0
    );
    assert_eq!(harness.query_all_by_label("Statistics per move").count(), 0);
}

/// Kiwipete's depth 5 has 8 checks by two pieces that mate: the Grand Chess Tree counts them as
/// direct discovered mates, the wiki leaves them out of its double checks. Either convention's
/// columns show the value its source publishes (the marks: `stats_table`'s tests).
#[test]
fn each_convention_shows_its_sources_figures() {
    let mut settings = test_settings(5);
    settings.fen = KIWIPETE.to_string();
    settings.move_stats = true;
    let mut harness = harness(settings);
    harness.get_by_label("▶ Run").click();
    step_until(&mut harness, "the result", |h| {
        idle(h) && !h.state().state().history.is_empty()
    });
    let state = harness.state().state();
    let result = state.levels[0].result.as_ref().expect("a result");
    assert_eq!(result.counts.nodes, 193_690_690);
    let stats = result.counts.stats;
    assert_eq!(stats.get(MoveStat::DirectDiscoveredChecks), 2637);
    assert_eq!(stats.get(MoveStat::DirectDiscoveredMates), 8);
    assert_eq!(stats.get(MoveStat::DoubleChecks), 2637);
    // The Grand Chess Tree's columns first: total checks without mates.
    assert_eq!(harness.query_all_by_label("3,279,716").count(), 1);
    assert_eq!(harness.query_all_by_label("3,309,887").count(), 0);
    // Picked through accesskit, which reaches the radio wherever the panel's scrolling put it.
    harness
        .get_by_label("Chess Programming Wiki")
        .click_accesskit();
    harness.step();
    harness.step();
    assert_eq!(harness.query_all_by_label("3,309,887").count(), 1);
    assert_eq!(harness.query_all_by_label("2,637").count(), 1);
}

/// A Vulkan run with statistics is one search, reported as a node count is: while it runs the
/// live panel's elapsed time, node rate and tasks move, over the plan's tasks (not a multiple
/// of them), and the result is the published one.
#[test]
fn a_vulkan_run_with_statistics_keeps_the_live_panel_moving() {
    let settings = Settings {
        backend: BackendSelection::Vulkan { device: 0 },
        move_stats: true,
        ..test_settings(6)
    };
    let mut harness = harness(settings);
    harness.get_by_label("▶ Run").click();
    // (elapsed, tasks done, tasks in all, node rate) of each report seen before the end.
    let mut reports = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        harness.step();
        let state = harness.state().state();
        if let Some(progress) = state.live.as_ref().and_then(|live| {
            live.end
                .is_none()
                .then_some(live.progress.as_ref())
                .flatten()
        }) {
            let report = (
                progress.elapsed,
                progress.tasks_done,
                progress.tasks_total,
                progress.nps,
            );
            if reports.last() != Some(&report) {
                reports.push(report);
            }
        }
        if idle(&harness) && !state.history.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "no result within 300 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    let running: Vec<_> = reports
        .iter()
        .filter(|(_, done, total, _)| done < total)
        .collect();
    assert!(running.len() >= 2, "reports while it ran: {reports:?}");
    let total = reports[0].2;
    for pair in reports.windows(2) {
        let ((elapsed, done, tasks, _), (next_elapsed, next_done, next_tasks, _)) =
            (pair[0], pair[1]);
        assert_eq!((tasks, next_tasks), (total, total), "{reports:?}");
        assert!(next_elapsed > elapsed && next_done >= done, "{reports:?}");
    }
    assert!(
        running.iter().any(|(_, _, _, nps)| *nps > 0.0),
        "{reports:?}"
    );
    let state = harness.state().state();
    let result = state.levels[0].result.as_ref().expect("a result");
    let published = published_stats_for(Convention::GrandChessTree, START_FEN, 6).unwrap();
    assert_eq!(result.counts.nodes, published.nodes);
    for &(stat, theirs) in &published.stats {
        assert_eq!(result.counts.stats.get(stat), theirs, "{stat:?}");
    }
}
