//! The live panel: the node rate over time, nodes and time so far, progress with the time
//! left, the transposition table's counters with the risk model, and the work counters.

use super::format;
use super::live_run::LiveRun;
use crate::tt::{TtMode, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use egui::{RichText, Ui};
use egui_plot::{Line, Plot, PlotPoints};

pub fn show(ui: &mut Ui, live: Option<&LiveRun>) {
    ui.heading("Live");
    let Some(live) = live else {
        ui.weak("Node rate, progress and table statistics appear here while a run goes.");
        return;
    };
    progress_bar(ui, live);
    ui.horizontal_top(|ui| {
        ui.allocate_ui(egui::vec2(250.0, ui.available_height()), |ui| {
            counters(ui, live);
        });
        rate_plot(ui, live);
    });
}

fn progress_bar(ui: &mut Ui, live: &LiveRun) {
    let progress = live.progress.as_ref();
    let fraction = live.fraction_done();
    let time_left = if live.ended {
        "done".to_string()
    } else {
        live.time_left().map_or("estimating…".to_string(), |left| {
            format!("about {} left", format::duration(left))
        })
    };
    let bar_text = progress.map_or("waiting for the first report".to_string(), |p| {
        format!("{} / {} tasks, {time_left}", p.tasks_done, p.tasks_total)
    });
    ui.add(egui::ProgressBar::new(fraction).text(bar_text));
}

fn counters(ui: &mut Ui, live: &LiveRun) {
    let progress = live.progress.as_ref();
    egui::Grid::new("live-counters")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            ui.label("Nodes");
            ui.label(
                RichText::new(progress.map_or("0".to_string(), |p| format::thousands(p.nodes)))
                    .strong(),
            );
            ui.end_row();
            ui.label("Elapsed");
            ui.label(progress.map_or("–".to_string(), |p| format::duration(p.elapsed)));
            ui.end_row();
            ui.label("Nodes/second");
            ui.label(progress.map_or("–".to_string(), |p| format::rate(p.nps)));
            ui.end_row();
            match progress.and_then(|p| p.tt.as_ref().map(|tt| (tt, p.nodes))) {
                Some((tt, nodes)) => table_rows(ui, tt, nodes),
                None => {
                    ui.label("TT");
                    ui.weak(if live.tt_mode == TtMode::Off {
                        "off"
                    } else {
                        "no statistics yet"
                    });
                    ui.end_row();
                }
            }
            if let Some(work) = progress.and_then(|p| p.work.as_ref()) {
                work_rows(ui, work);
            }
        });
}

/// What the run did so far: the leaf work, and on the GPU what its chunks wrote and cost.
fn work_rows(ui: &mut Ui, work: &WorkCounters) {
    let count = |value: u64| format::thousands(u128::from(value));
    ui.label("Leaf count-ops").on_hover_text(
        "Positions whose moves were counted at the last ply: perft(depth - 1) without a \
         table, fewer the more the table saves",
    );
    ui.label(format::thousands(work.leaf_count_ops));
    ui.end_row();
    ui.label("Expanded");
    ui.label(count(work.positions_expanded.total()))
        .on_hover_text("Positions whose children were made");
    ui.end_row();
    let Some(chunks) = &work.chunks else {
        return;
    };
    let per_leaf = chunks
        .leaf_bytes_per_position()
        .map_or_else(String::new, |bytes| format!(" ({bytes:.0} B each)"));
    for (name, value, hover) in [
        (
            "Written",
            format!("{}{per_leaf}", count(chunks.positions_written.total())),
            "Positions written to the GPU's chunk buffers (bytes per leaf-level position)",
        ),
        (
            "Duplicates",
            count(chunks.duplicates),
            "Positions found earlier in their level and searched once",
        ),
        (
            "Submissions",
            format!(
                "{} ({} dispatches)",
                count(chunks.submissions),
                count(chunks.dispatches)
            ),
            "Command buffers sent to the device, and the compute dispatches in them",
        ),
        (
            "Overflows",
            format!(
                "{} ({} positions wasted)",
                count(chunks.overflows),
                count(chunks.wasted_positions)
            ),
            "Chunks redone smaller because a level did not fit the buffers",
        ),
    ] {
        ui.label(name).on_hover_text(hover);
        ui.label(value);
        ui.end_row();
    }
}

fn table_rows(ui: &mut Ui, tt: &TtStatsSnapshot, nodes: u128) {
    let total = &tt.total;
    ui.label("TT occupancy");
    ui.add(
        egui::ProgressBar::new(total.occupancy as f32)
            .desired_width(120.0)
            .text(format::percent(total.occupancy)),
    )
    .on_hover_text(format!(
        "{} of {} slots in use",
        format::thousands(u128::from(total.used_slots)),
        format::thousands(u128::from(tt.slots))
    ));
    ui.end_row();
    let hit_rate = if total.probes > 0 {
        total.hits as f64 / total.probes as f64
    } else {
        0.0
    };
    for (name, value) in [
        ("Probes", total.probes),
        ("Hits", total.hits),
        ("Stores", total.stores),
        ("Overwrites", total.overwrites),
    ] {
        ui.label(name);
        let text = format::thousands(u128::from(value));
        if name == "Hits" {
            ui.label(format!("{text} ({})", format::percent(hit_rate)));
        } else {
            ui.label(text);
        }
        ui.end_row();
    }
    if tt.mode == TtMode::Certify {
        ui.label("False hits");
        ui.label(format::thousands(u128::from(total.false_hits)))
            .on_hover_text("Fast-table hits whose exact key differed: caught and corrected");
        ui.end_row();
    }
    ui.label("Payload skips");
    ui.label(format::thousands(u128::from(total.payload_skips)))
        .on_hover_text("Stores skipped because the count did not fit the compact entry");
    ui.end_row();
    if tt.mode != TtMode::Verified {
        let risk = tt.risk(nodes);
        ui.label("Expected false hits").on_hover_text(
            "How many probes would pass the verifier by chance: probes that met another \
                 position's entry, divided by 2^verifier bits",
        );
        ui.label(format::small(risk.expected_false_hits));
        ui.end_row();
        ui.label("P(any false hit)")
            .on_hover_text("The chance that at least one false hit slipped into this count");
        ui.label(format::small(risk.p_false_hit));
        ui.end_row();
    }
}

fn rate_plot(ui: &mut Ui, live: &LiveRun) {
    let points = PlotPoints::from(live.rate_samples.clone());
    Plot::new("node-rate")
        .height(ui.available_height().clamp(120.0, 240.0))
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .x_axis_label("seconds")
        .y_axis_label("nodes/s")
        .y_axis_formatter(|mark, _range| compact(mark.value))
        .show(ui, |plot| {
            plot.line(Line::new("nodes/s", points));
        });
}

/// Axis labels: `250M`, `1.2G`.
fn compact(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude >= 1e9 {
        format!("{:.1}G", value / 1e9)
    } else if magnitude >= 1e6 {
        format!("{:.0}M", value / 1e6)
    } else if magnitude >= 1e3 {
        format!("{:.0}k", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}
