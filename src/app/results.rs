//! The results panel: the total against the published value, the divide table, and the
//! breadcrumb of moves made from it (perftree's way of walking down to a wrong subtree).

use super::format;
use crate::chess::{Move, Position};
use crate::engine::PerftResult;
use crate::reference;
use egui::{RichText, Ui};
use std::sync::Arc;

/// One step of the walk: a position, the depth searched from it, and how it was reached.
pub struct Level {
    pub position: Position,
    pub depth: u32,
    /// The move from the level above; none at the root.
    pub via: Option<Move>,
    pub result: Option<Arc<PerftResult>>,
    /// Why there is no result (failed or cancelled).
    pub outcome: Option<String>,
}

impl Level {
    pub fn new(position: Position, depth: u32, via: Option<Move>) -> Level {
        Level {
            position,
            depth,
            via,
            result: None,
            outcome: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DivideOrder {
    #[default]
    MoveAscending,
    MoveDescending,
    NodesAscending,
    NodesDescending,
}

pub enum ResultsAction {
    /// Make this move from the shown level and search its subtree.
    Descend(Move),
    /// Go back to the level with this index.
    WalkBack(usize),
}

/// The shown level's divide, in the chosen order.
pub fn sorted_divide(result: &PerftResult, order: DivideOrder) -> Vec<(Move, u128)> {
    let mut rows: Vec<(Move, u128)> = result
        .divide
        .iter()
        .map(|(mv, counts)| (*mv, counts.nodes))
        .collect();
    match order {
        DivideOrder::MoveAscending => rows.sort_by_key(|(mv, _)| mv.to_string()),
        DivideOrder::MoveDescending => {
            rows.sort_by_key(|(mv, _)| std::cmp::Reverse(mv.to_string()))
        }
        DivideOrder::NodesAscending => rows.sort_by_key(|&(mv, nodes)| (nodes, mv.to_string())),
        DivideOrder::NodesDescending => {
            rows.sort_by_key(|&(mv, nodes)| (std::cmp::Reverse(nodes), mv.to_string()))
        }
    }
    rows
}

pub fn show(
    ui: &mut Ui,
    levels: &[Level],
    order: &mut DivideOrder,
    running: bool,
) -> Option<ResultsAction> {
    let mut action = None;
    ui.heading("Results");
    let Some(level) = levels.last() else {
        ui.weak("Set up a position and press Run.");
        return None;
    };
    breadcrumb(ui, levels, running, &mut action);
    let Some(result) = &level.result else {
        match &level.outcome {
            Some(outcome) => ui.label(outcome),
            None => ui.weak(format!("Searching depth {}…", level.depth)),
        };
        return action;
    };
    summary(ui, result);
    ui.horizontal(|ui| {
        if ui.button("Copy text").clicked() {
            ui.ctx().copy_text(result.report_text());
        }
        if ui.button("Copy JSON").clicked() {
            let json = serde_json::to_string_pretty(&result.to_json(true)).unwrap_or_default();
            ui.ctx().copy_text(json);
        }
    });
    ui.separator();
    divide_table(ui, result, order, running, &mut action);
    action
}

fn breadcrumb(ui: &mut Ui, levels: &[Level], running: bool, action: &mut Option<ResultsAction>) {
    if levels.len() < 2 {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (index, level) in levels.iter().enumerate() {
            let label = match level.via {
                None => "root".to_string(),
                Some(mv) => mv.to_string(),
            };
            if index + 1 == levels.len() {
                ui.strong(label);
            } else {
                let crumb = ui
                    .add_enabled(!running, egui::Button::new(label).small())
                    .on_hover_text("Go back to this position");
                if crumb.clicked() {
                    *action = Some(ResultsAction::WalkBack(index));
                }
                ui.label("›");
            }
        }
    });
}

fn summary(ui: &mut Ui, result: &PerftResult) {
    let fen = result.position.to_fen();
    egui::Grid::new("result-summary")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Nodes");
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format::thousands(result.counts.nodes))
                        .strong()
                        .size(18.0),
                );
                reference_mark(ui, &fen, result);
            });
            ui.end_row();
            ui.label("Time");
            ui.label(format::duration(result.elapsed));
            ui.end_row();
            ui.label("Nodes/second");
            ui.label(format::rate(result.nps()));
            ui.end_row();
            ui.label("Run");
            ui.label(format!(
                "depth {}, {}, TT {}",
                result.depth,
                result.ran_on(),
                result.tt_mode
            ));
            ui.end_row();
        });
}

fn reference_mark(ui: &mut Ui, fen: &str, result: &PerftResult) {
    let Some(published) = reference::lookup(fen, result.depth) else {
        return;
    };
    if published.nodes == result.counts.nodes {
        ui.colored_label(egui::Color32::from_rgb(40, 160, 70), "✔ published")
            .on_hover_text(format!(
                "Equals the published perft({}) of {}",
                published.depth, published.name
            ));
    } else {
        ui.colored_label(egui::Color32::from_rgb(210, 50, 50), "✘ differs")
            .on_hover_text(format!(
                "The published perft({}) of {} is {}",
                published.depth,
                published.name,
                format::thousands(published.nodes)
            ));
    }
}

fn divide_table(
    ui: &mut Ui,
    result: &PerftResult,
    order: &mut DivideOrder,
    running: bool,
    action: &mut Option<ResultsAction>,
) {
    let rows = sorted_divide(result, *order);
    if rows.is_empty() {
        ui.weak("No legal moves.");
        return;
    }
    let descend = !running && result.depth > 0;
    egui::ScrollArea::vertical()
        .id_salt("divide-scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            egui::Grid::new("divide-grid")
                .striped(true)
                .num_columns(2)
                .min_col_width(80.0)
                .show(ui, |ui| {
                    let move_arrow = match *order {
                        DivideOrder::MoveAscending => " ▲",
                        DivideOrder::MoveDescending => " ▼",
                        _ => "",
                    };
                    if ui.button(format!("Move{move_arrow}")).clicked() {
                        *order = match *order {
                            DivideOrder::MoveAscending => DivideOrder::MoveDescending,
                            _ => DivideOrder::MoveAscending,
                        };
                    }
                    let nodes_arrow = match *order {
                        DivideOrder::NodesAscending => " ▲",
                        DivideOrder::NodesDescending => " ▼",
                        _ => "",
                    };
                    if ui.button(format!("Nodes{nodes_arrow}")).clicked() {
                        *order = match *order {
                            DivideOrder::NodesDescending => DivideOrder::NodesAscending,
                            _ => DivideOrder::NodesDescending,
                        };
                    }
                    ui.end_row();
                    for (mv, nodes) in rows {
                        let button = ui
                            .add_enabled(descend, egui::Button::new(mv.to_string()).small())
                            .on_hover_text("Make this move and search its subtree");
                        if button.clicked() {
                            *action = Some(ResultsAction::Descend(mv));
                        }
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            ui.monospace(format::thousands(nodes));
                        });
                        ui.end_row();
                    }
                });
        });
}
