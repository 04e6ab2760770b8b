//! Every run since the app started, so that modes and backends can be compared.

use super::format;
use crate::engine::PerftResult;
use crate::reference;
use crate::tt::TtMode;
use egui::Ui;
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
}

impl HistoryRow {
    pub fn of(result: &PerftResult) -> HistoryRow {
        let fen = result.position.to_fen();
        let matches_reference = reference::published(&fen, result.depth)
            .map(|value| value.nodes == result.counts.nodes);
        HistoryRow {
            depth: result.depth,
            backend: result.ran_on(),
            tt_mode: result.tt_mode.name().to_string(),
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            nps: result.nps(),
            false_hits: result
                .tt
                .as_ref()
                .filter(|tt| tt.mode == TtMode::Certify)
                .map(|tt| tt.total.false_hits),
            matches_reference,
            fen,
        }
    }
}

pub fn show(ui: &mut Ui, history: &[HistoryRow]) {
    ui.heading("History");
    if history.is_empty() {
        ui.weak("Finished runs appear here.");
        return;
    }
    egui::ScrollArea::both()
        .id_salt("history-scroll")
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("history-grid")
                .striped(true)
                .num_columns(8)
                .show(ui, |ui| {
                    for title in [
                        "#",
                        "position",
                        "depth",
                        "backend",
                        "TT",
                        "nodes",
                        "time",
                        "false hits",
                    ] {
                        ui.strong(title);
                    }
                    ui.end_row();
                    for (index, row) in history.iter().enumerate() {
                        ui.label((index + 1).to_string());
                        ui.label(short_position(&row.fen)).on_hover_text(&row.fen);
                        ui.label(row.depth.to_string());
                        ui.label(&row.backend);
                        ui.label(&row.tt_mode);
                        let nodes = format::thousands(row.nodes);
                        let nodes = match row.matches_reference {
                            Some(true) => format!("{nodes} ✔"),
                            Some(false) => format!("{nodes} ✘"),
                            None => nodes,
                        };
                        ui.label(nodes)
                            .on_hover_text(format!("{} nodes/s", format::rate(row.nps)));
                        ui.label(format::duration(row.elapsed));
                        ui.label(row.false_hits.map_or("–".to_string(), |n| n.to_string()));
                        ui.end_row();
                    }
                });
        });
}

/// A reference position's name, a Chess960 start position's number, or the start of the FEN.
fn short_position(fen: &str) -> String {
    let placement = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let wanted = placement(fen);
    let named = reference::positions()
        .into_iter()
        .find(|(_, known)| placement(known) == wanted)
        .map(|(name, _)| name.to_string());
    named
        .or_else(|| reference::chess960::lookup(fen).map(|start| format!("960 #{}", start.index)))
        .unwrap_or_else(|| format!("{}…", fen.chars().take(14).collect::<String>()))
}

#[cfg(test)]
mod tests {
    use super::HistoryRow;
    use crate::engine::result_text::tests::gpu_result;

    #[test]
    fn a_gpu_run_shows_its_device() {
        let row = HistoryRow::of(&gpu_result());
        assert_eq!(row.backend, "vulkan (Test GPU 9000)");
    }
}
