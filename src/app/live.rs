//! The live panel: the node rate over time, nodes and time so far, progress with the time
//! left, and the transposition table's counters with the risk model.

use super::format;
use super::live_run::LiveRun;
use crate::tt::{TtMode, TtStatsSnapshot};
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
        });
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
