//! The live panel: the node rate over time, nodes and time so far, progress with the time
//! left, the transposition table's counters with the risk model, and the work counters.

use super::format;
use super::live_run::{LiveRun, RunEnd, RATE_WINDOW_SECONDS};
use super::risk_rows;
use crate::tt::{TtMode, TtStatsSnapshot};
use crate::work_counters::WorkCounters;
use egui::{RichText, Ui};
use egui_plot::{GridInput, GridMark, Line, Plot, PlotPoints};

/// Below this width the plot goes under the counters instead of beside them.
const SIDE_BY_SIDE_WIDTH: f32 = 420.0;
/// The plot's height at least: below it the plot folds away, the counters keep their room.
const PLOT_MIN_HEIGHT: f32 = 110.0;
const PLOT_MAX_HEIGHT: f32 = 240.0;

pub fn show(ui: &mut Ui, live: Option<&LiveRun>) {
    ui.heading("Live");
    let Some(live) = live else {
        ui.weak("Node rate, progress and table statistics appear here while a run goes.");
        return;
    };
    progress_bar(ui, live);
    let bottom = ui.max_rect().bottom();
    egui::ScrollArea::both()
        .id_salt("live-scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if ui.available_width() >= SIDE_BY_SIDE_WIDTH {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| counters(ui, live));
                    let room = bottom - ui.cursor().top();
                    rate_plot(ui, live, room.clamp(PLOT_MIN_HEIGHT, PLOT_MAX_HEIGHT));
                });
            } else {
                counters(ui, live);
                let room = bottom - ui.cursor().top() - ui.spacing().item_spacing.y;
                if room >= PLOT_MIN_HEIGHT {
                    rate_plot(ui, live, room.min(PLOT_MAX_HEIGHT));
                }
            }
        });
}

fn progress_bar(ui: &mut Ui, live: &LiveRun) {
    let progress = live.progress.as_ref();
    let fraction = live.fraction_done();
    let state = match live.end {
        Some(RunEnd::Finished) => "done".to_string(),
        Some(RunEnd::Cancelled) => "cancelled".to_string(),
        Some(RunEnd::Failed) => "failed".to_string(),
        None => live.time_left().map_or("estimating…".to_string(), |left| {
            format!("about {} left", format::duration(left))
        }),
    };
    let bar_text = match (progress, live.end) {
        // An earlier run's figures, from its result: its tasks were not kept.
        (Some(_), Some(RunEnd::Finished)) if live.from_result => {
            "done (an earlier run)".to_string()
        }
        (Some(p), _) => format!("{} / {} tasks, {state}", p.tasks_done, p.tasks_total),
        (None, None) => "building the plan…".to_string(),
        (None, Some(_)) => state,
    };
    ui.add(egui::ProgressBar::new(fraction).text(bar_text))
        .on_hover_text(
            "Tasks are the subtrees the run is split into. With a table on the CPU the time \
             left is the table's stores still to come (their final number forecast from random \
             walks) at the recent rate; otherwise it extrapolates from the share of tasks done",
        );
}

fn counters(ui: &mut Ui, live: &LiveRun) {
    let progress = live.progress.as_ref();
    // Rows come and go as the run reports (table, work counters): a minimum column width
    // keeps a new row's name from overlapping its value in its first frame.
    egui::Grid::new("live-counters")
        .num_columns(2)
        .min_col_width(100.0)
        .spacing([8.0, 3.0])
        .show(ui, |ui| {
            ui.label("Nodes")
                .on_hover_text("Leaf positions counted so far");
            ui.label(
                RichText::new(progress.map_or("0".to_string(), |p| format::thousands(p.nodes)))
                    .strong(),
            );
            ui.end_row();
            ui.label("Elapsed")
                .on_hover_text("Time since the run started");
            ui.label(progress.map_or("–".to_string(), |p| format::duration(p.elapsed)));
            ui.end_row();
            ui.label("Nodes/second")
                .on_hover_text("Nodes so far divided by the time so far");
            ui.label(progress.map_or("–".to_string(), |p| format::rate(p.nps)));
            ui.end_row();
            match progress.and_then(|p| p.tt.as_ref().map(|tt| (tt, p.nodes))) {
                Some((tt, nodes)) => table_rows(ui, tt, nodes),
                None => {
                    ui.label("TT")
                        .on_hover_text("The transposition table's statistics");
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
        "Positions whose moves were counted at the last ply; with the moves counted without \
         being made, perft(depth - 1) without a table, fewer the more the table saves",
    );
    ui.label(format::thousands(work.leaf_count_ops));
    ui.end_row();
    ui.label("Counted, not made").on_hover_text(
        "Moves two plies above the leaves that leave the opponent's replies as they are: \
         counted by the replies of the position with the turn passed, without being made",
    );
    ui.label(format::thousands(work.null_counted));
    ui.end_row();
    ui.label("Expanded")
        .on_hover_text("Positions whose children were made");
    ui.label(count(work.positions_expanded.total()));
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
    ui.label("TT occupancy")
        .on_hover_text("The share of the table's slots in use");
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
    for (name, value, hover) in [
        ("Probes", total.probes, "Table look-ups"),
        (
            "Hits",
            total.hits,
            "Look-ups that found the position's count (and the share of probes)",
        ),
        ("Stores", total.stores, "Counts written to the table"),
        (
            "Overwrites",
            total.overwrites,
            "Stores that replaced another position's entry",
        ),
    ] {
        ui.label(name).on_hover_text(hover);
        let text = format::thousands(u128::from(value));
        if name == "Hits" {
            ui.label(format!("{text} ({})", format::percent(hit_rate)));
        } else {
            ui.label(text);
        }
        ui.end_row();
    }
    ui.label("Payload skips")
        .on_hover_text("Stores skipped because the count did not fit the compact entry");
    ui.label(format::thousands(u128::from(total.payload_skips)));
    ui.end_row();
    risk_rows::show(ui, tt, nodes);
}

fn rate_plot(ui: &mut Ui, live: &LiveRun, height: f32) {
    let width = ui.available_width().max(160.0);
    let note = |ui: &mut Ui, text: &str| {
        ui.add_sized(
            [width, 0.0],
            egui::Label::new(RichText::new(text).weak()).wrap(),
        );
    };
    if live.from_result {
        note(
            ui,
            "No rate plot: these figures are an earlier run's result.",
        );
        return;
    }
    let Some(&[seconds, _]) = live.rate_samples.last() else {
        // No axes before the first report: an empty plot's ticks read "0 0 0 -0".
        note(ui, "The node rate is plotted from the first report on.");
        return;
    };
    if seconds < RATE_WINDOW_SECONDS {
        // The rate is averaged over a second: a shorter run has no rate over time to show.
        note(ui, "The node rate is plotted once a run has gone a second.");
        return;
    }
    let top = live
        .rate_samples
        .iter()
        .map(|&[_, rate]| rate)
        .fold(1.0, f64::max);
    let points = PlotPoints::from(live.rate_samples.clone());
    // egui_plot paints a tick's label only with room around it (about 80 points across,
    // 30 up): as many ticks as the plot's size gives that room.
    let x_ticks = f64::from(width / 90.0).max(2.0);
    let y_ticks = f64::from(height / 40.0).max(2.0);
    Plot::new("node-rate")
        .height(height)
        .width(width)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_x(0.0)
        .include_x(seconds)
        .include_y(0.0)
        .include_y(top * 1.1)
        .x_axis_label("seconds")
        .y_axis_label("nodes/s")
        .x_grid_spacer(move |input| round_ticks(input, x_ticks))
        .y_grid_spacer(move |input| round_ticks(input, y_ticks))
        .x_axis_formatter(|mark, _range| seconds_tick(mark))
        .y_axis_formatter(|mark, _range| compact(mark.value))
        .show(ui, |plot| {
            plot.line(Line::new("nodes/s", points));
        })
        .response
        .on_hover_text("Nodes per second, averaged over the last second of the run");
}

/// About `count` ticks per axis (few enough that each keeps its label) at 1, 2 or 5 times a
/// power of ten.
fn round_ticks(input: GridInput, count: f64) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    let span = (high - low).max(f64::MIN_POSITIVE);
    let rough = span / count;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|factor| factor * power)
        .find(|&step| step >= rough)
        .unwrap_or(10.0 * power);
    // At least two ticks in range, so that an axis is never labelled by its origin alone:
    // down the 1, 2, 5 ladder (5 to 2, 2 to 1, 1 to 0.5) until two fit.
    let mut step = step;
    for _ in 0..3 {
        if (high / step).floor() - (low / step).ceil() >= 1.0 {
            break;
        }
        let mantissa = step / 10f64.powf(step.log10().floor());
        step *= if (mantissa - 5.0).abs() < 0.5 {
            0.4
        } else {
            0.5
        };
    }
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    (first..=last)
        .map(|index| GridMark {
            value: index as f64 * step,
            step_size: step,
        })
        .collect()
}

/// Seconds with as many decimals as the tick step needs: `0`, `0.2`, `0.4`.
fn seconds_tick(mark: GridMark) -> String {
    let decimals = if mark.step_size >= 1.0 {
        0
    } else {
        (-mark.step_size.log10()).ceil() as usize
    };
    format!("{:.*}", decimals, mark.value.max(0.0))
}

/// Axis labels: `250M`, `1.2G`.
fn compact(value: f64) -> String {
    // Ticks below zero never show a rate; `-0` is a rounding artefact.
    let value = value.max(0.0);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ticks(low: f64, high: f64, count: f64) -> Vec<f64> {
        let input = GridInput {
            bounds: (low, high),
            base_step_size: 0.0,
        };
        round_ticks(input, count)
            .into_iter()
            .map(|mark| mark.value)
            .collect()
    }

    #[test]
    fn an_axis_has_two_ticks_at_least() {
        // A 4.6 s run in a narrow plot: a step of 5 would leave only the 0.
        assert_eq!(ticks(0.0, 4.6, 2.0), vec![0.0, 2.0, 4.0]);
        assert_eq!(ticks(0.0, 100.0, 4.0), vec![0.0, 50.0, 100.0]);
        assert_eq!(ticks(0.0, 1.2, 3.0), vec![0.0, 0.5, 1.0]);
    }
}
