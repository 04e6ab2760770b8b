//! The window's move-type statistics: the box in the run panel, the table by depth under the
//! result with the wiki's values marked, and the divide table's columns per root move.

use crate::gui::{harness, idle, step_until, test_settings};
use egui_kittest::kittest::Queryable;
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
        let published = published_stats_for(vkperft::chess::fen::START_FEN, *depth).unwrap();
        assert_eq!(counts.nodes, published.nodes, "depth {depth}");
        for (ours, theirs) in counts.stats.values().iter().zip(published.stats) {
            if let Some(theirs) = theirs {
                assert_eq!(*ours, theirs, "depth {depth}");
            }
        }
    }
    assert_eq!(result.stats_by_depth[3].1, result.counts);
    // Copy JSON gives them too.
    let json = result.to_json(true);
    assert_eq!(json["stats_by_depth"][2]["nodes"], "8902");
    assert_eq!(json["stats_by_depth"][2]["stats"]["captures"], "34");
    // The table shows depth 4's captures (1,576) and checks (469), and depth 3's 8,902 nodes
    // besides the summary's and the history's.
    harness.get_by_label("Move-type statistics");
    assert!(harness.query_all_by_label("1,576").count() >= 1);
    assert!(harness.query_all_by_label("469").count() >= 1);
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

/// Kiwipete's double checks at depth 5 differ from the wiki's for a known reason: the table
/// shows vkperft's value (marked amber, its hover the wiki's and why: `stats_table`'s tests).
#[test]
fn a_known_dispute_is_shown_with_vkperfts_value() {
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
    assert_eq!(result.counts.stats.double_checks, 2645);
    assert_eq!(harness.query_all_by_label("2,645").count(), 1);
}
