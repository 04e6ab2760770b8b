//! Every run since the app started, with what makes runs differ (mode, verifier bits, seed,
//! table size, backend), so that modes and backends can be compared: two rows picked side by
//! side, and any row's settings and position loaded again.

use super::format;
use crate::backend::Device;
use crate::chess::zobrist::DEFAULT_SEED;
use crate::engine::PerftResult;
use crate::reference;
use crate::tt::TtMode;
use egui::{RichText, Ui};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

pub struct HistoryRow {
    /// The position as the history names it: a reference position's name, a Chess960 start
    /// position's number or the FEN, followed by the moves walked from it.
    pub name: String,
    pub fen: String,
    pub depth: u32,
    pub backend: Device,
    pub tt_mode: TtMode,
    pub nodes: u128,
    pub elapsed: Duration,
    pub nps: f64,
    /// certify: false hits the fast table would have let through.
    pub false_hits: Option<u64>,
    /// Whether the total equals the published value, where there is one.
    pub matches_reference: Option<bool>,
    /// The fast verifier's bits (fast and certify).
    pub verifier_bits: Option<u32>,
    /// The table's size in bytes, with a table.
    pub table_bytes: Option<u64>,
    pub zobrist_seed: u64,
    /// The whole result: its divide for comparisons, its settings to load again.
    pub result: Arc<PerftResult>,
}

impl HistoryRow {
    /// The row of a run of `result`, reached from `root` by `path` (empty for a root's own
    /// run).
    pub fn of(result: Arc<PerftResult>, root: &str, path: &[String]) -> HistoryRow {
        let mut name = short_position(root);
        for mv in path {
            name.push(' ');
            name.push_str(mv);
        }
        HistoryRow::named(result, name)
    }

    /// The row of `result` under `name`.
    pub fn named(result: Arc<PerftResult>, name: String) -> HistoryRow {
        let fen = result.position.to_fen();
        let matches_reference = reference::published(&fen, result.depth)
            .map(|value| value.nodes == result.counts.nodes);
        let table = result.tt.as_ref();
        HistoryRow {
            name,
            depth: result.depth,
            backend: result.device.clone(),
            tt_mode: result.tt_mode,
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            nps: result.nps(),
            false_hits: table
                .filter(|tt| tt.mode == TtMode::Certify)
                .map(|tt| tt.total.false_hits),
            matches_reference,
            verifier_bits: table
                .filter(|tt| tt.mode.has_verifier())
                .map(|tt| tt.verifier_bits),
            table_bytes: table.map(|tt| tt.bytes),
            zobrist_seed: result.zobrist_seed,
            fen,
            result,
        }
    }

    /// `fast, 8 bits, 16 MiB`.
    fn table_text(&self) -> String {
        let mut text = self.tt_mode.to_string();
        if let Some(bits) = self.verifier_bits {
            text += &format!(", {bits} bits");
        }
        if let Some(bytes) = self.table_bytes {
            text += &format!(", {}", format::bytes(bytes));
        }
        text
    }

    /// The seed as the column shows it: `default`, or in hex.
    fn seed_text(&self) -> String {
        if self.zobrist_seed == DEFAULT_SEED {
            "default".to_string()
        } else {
            format!("{:#x}", self.zobrist_seed)
        }
    }

    /// Whether the two rows searched the same position to the same depth, so that their
    /// counts and divides can be compared.
    fn same_search(&self, other: &HistoryRow) -> bool {
        self.fen == other.fen && self.depth == other.depth
    }
}

pub enum HistoryAction {
    /// Put this row's position on the board and its settings in the run panel.
    Reload(usize),
}

/// The compared moves listed at most; the rest are counted under the table.
const MAX_COMPARED_MOVES: usize = 64;
/// The comparison's width beside the rows.
const COMPARISON_WIDTH: f32 = 340.0;
/// Below this width the comparison goes under the rows instead of beside them.
const SIDE_BY_SIDE_WIDTH: f32 = 760.0;
/// Red for what differs.
const DIFFERS: egui::Color32 = egui::Color32::from_rgb(210, 50, 50);

/// `selection`: the rows picked to compare, oldest pick first (a third pick drops the oldest).
/// `note`: what the window has to say about the history file. The rows stay where they are
/// when two are ticked: the comparison goes beside them (or under them in a narrow window),
/// never above.
pub fn show(
    ui: &mut Ui,
    history: &[HistoryRow],
    selection: &mut Vec<usize>,
    note: Option<&str>,
) -> Option<HistoryAction> {
    ui.horizontal(|ui| {
        ui.heading("History");
        if let Some(note) = note {
            ui.add(egui::Label::new(RichText::new(note).color(DIFFERS)).truncate())
                .on_hover_text(note);
        }
    });
    if history.is_empty() {
        ui.weak("Finished runs appear here. Tick two to compare them.");
        return None;
    }
    selection.retain(|&index| index < history.len());
    let compared = match selection[..] {
        [first, second] => Some((first, second)),
        _ => None,
    };
    let mut action = None;
    let Some((first, second)) = compared else {
        rows(ui, history, selection, &mut action);
        return action;
    };
    if ui.available_width() >= SIDE_BY_SIDE_WIDTH {
        let height = ui.available_height();
        ui.horizontal_top(|ui| {
            let rows_width = ui.available_width() - COMPARISON_WIDTH - 12.0;
            ui.allocate_ui(egui::vec2(rows_width, height), |ui| {
                rows(ui, history, selection, &mut action);
            });
            ui.separator();
            ui.vertical(|ui| {
                comparison(ui, (&history[first], first), (&history[second], second));
            });
        });
    } else {
        let height = ui.available_height() / 2.0;
        ui.allocate_ui(egui::vec2(ui.available_width(), height), |ui| {
            rows(ui, history, selection, &mut action);
        });
        ui.separator();
        comparison(ui, (&history[first], first), (&history[second], second));
    }
    action
}

/// The table of runs, newest at the bottom.
fn rows(
    ui: &mut Ui,
    history: &[HistoryRow],
    selection: &mut Vec<usize>,
    action: &mut Option<HistoryAction>,
) {
    egui::ScrollArea::both()
        .id_salt("history-scroll")
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("history-grid")
                .striped(true)
                .num_columns(11)
                .show(ui, |ui| {
                    for (title, hover) in [
                        ("#", "Tick two rows to compare them"),
                        ("", ""),
                        (
                            "position",
                            "A reference position's name or the FEN, then the moves walked \
                             from it (hover for the FEN)",
                        ),
                        (
                            "nodes",
                            "The total; ✔ equals, ✘ differs from the published value",
                        ),
                        ("depth", "Plies searched"),
                        ("nodes/s", "Nodes per second over the whole run"),
                        ("time", "Wall-clock time of the run"),
                        ("table", "Table mode, verifier bits and size"),
                        ("false hits", "certify: false hits caught and corrected"),
                        ("backend", "Where it ran: CPU threads or the Vulkan device"),
                        ("seed", "Zobrist seed of the position keys"),
                    ] {
                        ui.strong(title).on_hover_text(hover);
                    }
                    ui.end_row();
                    for (index, row) in history.iter().enumerate() {
                        let mut picked = selection.contains(&index);
                        if ui
                            .checkbox(&mut picked, format!("#{}", index + 1))
                            .on_hover_text("Compare with another ticked row")
                            .changed()
                        {
                            pick(selection, index, picked);
                        }
                        if ui
                            .small_button("Load")
                            .on_hover_text(
                                "Put this run's position on the board and its depth, backend \
                                 and table settings in the run panel",
                            )
                            .clicked()
                        {
                            *action = Some(HistoryAction::Reload(index));
                        }
                        elided(ui, &row.name, 130.0)
                            .on_hover_text(format!("{}\n{}", row.name, row.fen));
                        let nodes = format::thousands(row.nodes);
                        let nodes = match row.matches_reference {
                            Some(true) => format!("{nodes} ✔"),
                            Some(false) => format!("{nodes} ✘"),
                            None => nodes,
                        };
                        ui.monospace(nodes);
                        ui.label(row.depth.to_string());
                        ui.monospace(format::rate(row.nps));
                        ui.label(format::duration(row.elapsed));
                        ui.label(row.table_text());
                        ui.label(row.false_hits.map_or("–".to_string(), |n| n.to_string()));
                        let backend = row.backend.summary();
                        elided(ui, &backend, 120.0).on_hover_text(&backend);
                        ui.label(row.seed_text())
                            .on_hover_text(format!("{:#x}", row.zobrist_seed));
                        ui.end_row();
                    }
                });
        });
}

/// Ticks or unticks row `index`; at most two stay ticked.
fn pick(selection: &mut Vec<usize>, index: usize, picked: bool) {
    selection.retain(|&other| other != index);
    if picked {
        selection.push(index);
        if selection.len() > 2 {
            selection.remove(0);
        }
    }
}

/// `text` cut to `width` with an ellipsis.
fn elided(ui: &mut Ui, text: &str, width: f32) -> egui::Response {
    ui.allocate_ui(egui::vec2(width, ui.spacing().interact_size.y), |ui| {
        ui.add(egui::Label::new(text).truncate())
    })
    .inner
}

/// One root move's counts in two runs of the same search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDelta {
    pub mv: String,
    pub first: Option<u128>,
    pub second: Option<u128>,
}

impl MoveDelta {
    /// The second run's count less the first's; a move one run lacks counts as 0 there.
    pub fn delta(&self) -> i128 {
        let count = |count: Option<u128>| i128::try_from(count.unwrap_or(0)).unwrap_or(i128::MAX);
        count(self.second) - count(self.first)
    }
}

/// The moves whose counts differ between two runs, the largest difference first (ties by
/// move), and how many moves agree.
pub fn divide_deltas(first: &PerftResult, second: &PerftResult) -> (Vec<MoveDelta>, usize) {
    let mut moves: BTreeMap<String, MoveDelta> = BTreeMap::new();
    for (mv, counts) in &first.divide {
        let text = mv.to_string();
        moves.insert(
            text.clone(),
            MoveDelta {
                mv: text,
                first: Some(counts.nodes),
                second: None,
            },
        );
    }
    for (mv, counts) in &second.divide {
        let text = mv.to_string();
        moves
            .entry(text.clone())
            .or_insert(MoveDelta {
                mv: text,
                first: None,
                second: None,
            })
            .second = Some(counts.nodes);
    }
    let total = moves.len();
    let mut differing: Vec<MoveDelta> = moves
        .into_values()
        .filter(|delta| delta.first != delta.second)
        .collect();
    differing.sort_by(|a, b| {
        b.delta()
            .unsigned_abs()
            .cmp(&a.delta().unsigned_abs())
            .then_with(|| a.mv.cmp(&b.mv))
    });
    let agreeing = total - differing.len();
    (differing, agreeing)
}

/// Two runs side by side. Of one search (position and depth): totals, rates, false hits and
/// a table of the moves whose counts differ. Of two: only what can be compared, the rate and
/// the settings.
fn comparison(ui: &mut Ui, (a, a_index): (&HistoryRow, usize), (b, b_index): (&HistoryRow, usize)) {
    let (a_name, b_name) = (format!("#{}", a_index + 1), format!("#{}", b_index + 1));
    let same = a.same_search(b);
    ui.strong(if same {
        format!("{a_name} and {b_name}: one search")
    } else {
        format!("{a_name} and {b_name}: different searches")
    });
    egui::Grid::new("history-compared")
        .num_columns(3)
        .spacing([10.0, 2.0])
        .show(ui, |ui| {
            ui.label("");
            ui.strong(&a_name);
            ui.strong(&b_name);
            ui.end_row();
            let mut line = |name: &str, first: String, second: String| {
                ui.weak(name);
                ui.label(first);
                ui.label(second);
                ui.end_row();
            };
            if same {
                line(
                    "nodes",
                    format::thousands(a.nodes),
                    format::thousands(b.nodes),
                );
            } else {
                line("position", a.name.clone(), b.name.clone());
                line("depth", a.depth.to_string(), b.depth.to_string());
            }
            line("nodes/s", format::rate(a.nps), format::rate(b.nps));
            line("table", a.table_text(), b.table_text());
            let hits = |row: &HistoryRow| match (row.false_hits, row.tt_mode) {
                (Some(hits), _) => format!("{hits} caught"),
                (None, TtMode::Verified) => "none possible".to_string(),
                (None, TtMode::Off) => "no table".to_string(),
                (None, TtMode::Fast | TtMode::Certify) => "not counted (fast)".to_string(),
            };
            line("false hits", hits(a), hits(b));
            line("backend", a.backend.summary(), b.backend.summary());
            line("seed", a.seed_text(), b.seed_text());
        });
    let ratio = if a.nps > 0.0 { b.nps / a.nps } else { 0.0 };
    ui.label(format!("{b_name} ran at {ratio:.2}× {a_name}'s rate"));
    if !same {
        ui.weak("Other positions or depths: their counts are not comparable.");
        return;
    }
    let (deltas, agreeing) = divide_deltas(&a.result, &b.result);
    if deltas.is_empty() {
        ui.label(format!("Equal totals; all {agreeing} moves agree"));
        return;
    }
    ui.colored_label(
        DIFFERS,
        format!(
            "Totals differ by {}; {} moves differ, {agreeing} agree",
            format::thousands(a.nodes.abs_diff(b.nodes)),
            deltas.len()
        ),
    );
    egui::ScrollArea::vertical()
        .id_salt("history-deltas")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("history-delta-grid")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    ui.strong("move");
                    ui.strong(&a_name);
                    ui.strong(&b_name);
                    ui.strong("Δ")
                        .on_hover_text(format!("{b_name} less {a_name}"));
                    ui.end_row();
                    let count =
                        |count: Option<u128>| count.map_or("–".to_string(), format::thousands);
                    for delta in deltas.iter().take(MAX_COMPARED_MOVES) {
                        ui.monospace(&delta.mv);
                        ui.monospace(count(delta.first));
                        ui.monospace(count(delta.second));
                        let sign = if delta.delta() > 0 { "+" } else { "−" };
                        ui.monospace(
                            RichText::new(format!(
                                "{sign}{}",
                                format::thousands(delta.delta().unsigned_abs())
                            ))
                            .color(DIFFERS),
                        );
                        ui.end_row();
                    }
                });
            if deltas.len() > MAX_COMPARED_MOVES {
                ui.weak(format!(
                    "and {} more moves that differ less",
                    deltas.len() - MAX_COMPARED_MOVES
                ));
            }
        });
}

/// A reference position's name, a Chess960 start position's number, or the FEN.
fn short_position(fen: &str) -> String {
    let placement = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let wanted = placement(fen);
    let named = reference::positions()
        .into_iter()
        .find(|(_, known)| placement(known) == wanted)
        .map(|(name, _)| name.to_string());
    named
        .or_else(|| reference::chess960::lookup(fen).map(|start| format!("960 #{}", start.index)))
        .unwrap_or_else(|| fen.to_string())
}

#[cfg(test)]
mod tests {
    use super::{divide_deltas, pick, HistoryRow, MoveDelta};
    use crate::count::Counts;
    use crate::engine::PerftResult;
    use std::sync::Arc;

    #[test]
    fn a_gpu_run_shows_its_device() {
        let row = HistoryRow::of(
            Arc::new(PerftResult::sample_on_gpu()),
            &PerftResult::sample_on_gpu().position.to_fen(),
            &[],
        );
        assert_eq!(row.backend.summary(), "vulkan (Test GPU 9000)");
        assert_eq!(row.name, "startpos");
    }

    #[test]
    fn a_walked_position_is_named_by_its_moves() {
        let root = PerftResult::sample_on_gpu().position.to_fen();
        let path = ["e2e4".to_string(), "e7e5".to_string()];
        let row = HistoryRow::of(Arc::new(PerftResult::sample_on_gpu()), &root, &path);
        assert_eq!(row.name, "startpos e2e4 e7e5");
    }

    #[test]
    fn deltas_put_the_largest_difference_first() {
        let first = PerftResult::sample_on_gpu();
        let mut second = PerftResult::sample_on_gpu();
        // e2e4 up by 7, a2a3 missing, b1c3 and g1f3 down by 1: e2e4, then the ties by move.
        for (mv, counts) in &mut second.divide {
            *counts = Counts::exact(match mv.to_string().as_str() {
                "e2e4" => 8,
                "b1c3" | "g1f3" => 0,
                _ => 1,
            });
        }
        second.divide.retain(|(mv, _)| mv.to_string() != "a2a3");
        let (deltas, agreeing) = divide_deltas(&first, &second);
        let moves: Vec<(&str, i128)> = deltas
            .iter()
            .map(|delta| (delta.mv.as_str(), delta.delta()))
            .collect();
        assert_eq!(
            moves,
            vec![("e2e4", 7), ("a2a3", -1), ("b1c3", -1), ("g1f3", -1)]
        );
        assert_eq!(agreeing, 16);
        assert_eq!(
            deltas[1],
            MoveDelta {
                mv: "a2a3".to_string(),
                first: Some(1),
                second: None
            }
        );
    }

    #[test]
    fn a_third_pick_drops_the_oldest() {
        let mut selection = Vec::new();
        pick(&mut selection, 0, true);
        pick(&mut selection, 2, true);
        pick(&mut selection, 1, true);
        assert_eq!(selection, vec![2, 1]);
        pick(&mut selection, 2, false);
        assert_eq!(selection, vec![1]);
    }
}
