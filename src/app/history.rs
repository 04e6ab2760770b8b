//! Every run since the app started, with what makes runs differ (mode, verifier bits, seed,
//! table size, backend), so that modes and backends can be compared: two rows picked side by
//! side, and any row's settings and position loaded again.

use super::format;
use crate::engine::PerftResult;
use crate::reference;
use crate::tt::TtMode;
use egui::{RichText, Ui};
use std::sync::Arc;
use std::time::Duration;

pub struct HistoryRow {
    pub fen: String,
    pub depth: u32,
    pub backend: String,
    pub tt_mode: String,
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
    pub fn of(result: Arc<PerftResult>) -> HistoryRow {
        let fen = result.position.to_fen();
        let matches_reference = reference::published(&fen, result.depth)
            .map(|value| value.nodes == result.counts.nodes);
        let table = result.tt.as_ref();
        HistoryRow {
            depth: result.depth,
            backend: result.ran_on(),
            tt_mode: result.tt_mode.name().to_string(),
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            nps: result.nps(),
            false_hits: table
                .filter(|tt| tt.mode == TtMode::Certify)
                .map(|tt| tt.total.false_hits),
            matches_reference,
            verifier_bits: table
                .filter(|tt| matches!(tt.mode, TtMode::Fast | TtMode::Certify))
                .map(|tt| tt.verifier_bits),
            table_bytes: table.map(|tt| tt.bytes),
            zobrist_seed: result.zobrist_seed,
            fen,
            result,
        }
    }

    /// `fast, 8 bits, 16 MiB`.
    fn table_text(&self) -> String {
        let mut text = self.tt_mode.clone();
        if let Some(bits) = self.verifier_bits {
            text += &format!(", {bits} bits");
        }
        if let Some(bytes) = self.table_bytes {
            text += &format!(", {}", format::bytes(bytes));
        }
        text
    }
}

pub enum HistoryAction {
    /// Put this row's position on the board and its settings in the run panel.
    Reload(usize),
}

/// `selection`: the rows picked to compare, oldest pick first (a third pick drops the oldest).
pub fn show(
    ui: &mut Ui,
    history: &[HistoryRow],
    selection: &mut Vec<usize>,
) -> Option<HistoryAction> {
    ui.heading("History");
    if history.is_empty() {
        ui.weak("Finished runs appear here. Tick two to compare them.");
        return None;
    }
    selection.retain(|&index| index < history.len());
    if let [first, second] = selection[..] {
        comparison(ui, &history[first], first, &history[second], second);
        ui.separator();
    }
    let mut action = None;
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
                            "A reference position's name, or the FEN (hover it)",
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
                            action = Some(HistoryAction::Reload(index));
                        }
                        elided(ui, &short_position(&row.fen), 100.0).on_hover_text(&row.fen);
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
                        elided(ui, &row.backend, 140.0).on_hover_text(&row.backend);
                        ui.monospace(format!("{:#x}", row.zobrist_seed));
                        ui.end_row();
                    }
                });
        });
    action
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

/// Two runs side by side: totals, rates, false hits, and the moves whose counts differ.
fn comparison(ui: &mut Ui, a: &HistoryRow, a_index: usize, b: &HistoryRow, b_index: usize) {
    let (a_name, b_name) = (format!("#{}", a_index + 1), format!("#{}", b_index + 1));
    ui.strong(format!("Compared: {a_name} and {b_name}"));
    // Wrapped lines: the panel may be narrow.
    let line = |ui: &mut Ui, name: &str, text: RichText| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(name).weak());
            ui.label(text);
        });
    };
    let totals = if a.nodes == b.nodes {
        format!("equal: {}", format::thousands(a.nodes))
    } else {
        format!(
            "{a_name} {}, {b_name} {}: they differ by {}",
            format::thousands(a.nodes),
            format::thousands(b.nodes),
            format::thousands(a.nodes.abs_diff(b.nodes))
        )
    };
    line(ui, "Totals", RichText::new(totals));
    let ratio = if a.nps > 0.0 { b.nps / a.nps } else { 0.0 };
    line(
        ui,
        "Rate",
        RichText::new(format!(
            "{a_name} {}, {b_name} {} nodes/s ({b_name} at {ratio:.2}×)",
            format::rate(a.nps),
            format::rate(b.nps)
        )),
    );
    let hits = |row: &HistoryRow| match (row.false_hits, row.tt_mode.as_str()) {
        (Some(hits), _) => format!("{hits} caught"),
        (None, "verified") => "none possible".to_string(),
        (None, "off") => "no table".to_string(),
        (None, _) => "not counted (fast)".to_string(),
    };
    line(
        ui,
        "False hits",
        RichText::new(format!("{a_name} {}, {b_name} {}", hits(a), hits(b))),
    );
    line(ui, "Divide", divide_differences(a, b));
}

/// The moves whose counts differ between two runs of the same position and depth.
fn divide_differences(a: &HistoryRow, b: &HistoryRow) -> RichText {
    if a.fen != b.fen || a.depth != b.depth {
        return RichText::new("other positions or depths: no divide to compare").weak();
    }
    let differing: Vec<String> = a
        .result
        .divide
        .iter()
        .zip(&b.result.divide)
        .filter(|((_, ours), (_, theirs))| ours.nodes != theirs.nodes)
        .map(|((mv, ours), (_, theirs))| {
            format!(
                "{mv} {} vs {}",
                format::thousands(ours.nodes),
                format::thousands(theirs.nodes)
            )
        })
        .collect();
    if differing.is_empty() {
        RichText::new(format!("all {} moves agree", a.result.divide.len()))
    } else {
        RichText::new(format!(
            "{} moves differ: {}",
            differing.len(),
            differing.join(", ")
        ))
        .color(egui::Color32::from_rgb(210, 50, 50))
    }
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
    use super::{pick, HistoryRow};
    use crate::engine::result_text::tests::gpu_result;
    use std::sync::Arc;

    #[test]
    fn a_gpu_run_shows_its_device() {
        let row = HistoryRow::of(Arc::new(gpu_result()));
        assert_eq!(row.backend, "vulkan (Test GPU 9000)");
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
