//! The results panel: the total against the published value, the divide table (with the
//! user's engine's counts beside vkperft's once compared, mismatches marked), and the
//! breadcrumb of moves made from it (perftree's way of walking down to a wrong subtree, which
//! "Find the bug" walks by itself).

use super::format;
use super::level::{DivideOrder, Level};
use super::state::EngineCheckView;
use super::stats_table;
use crate::chess::{uci, Move, MoveStats, STAT_COUNT};
use crate::engine::PerftResult;
use crate::hunt::{moves_text, Difference};
use crate::reference;
use crate::tt::TtMode;
use egui::{Color32, RichText, Ui};
use std::collections::BTreeMap;

/// The divide table's height at least: its header and first rows; what is said above it
/// scrolls instead.
const DIVIDE_MIN_HEIGHT: f32 = 110.0;
const ABOVE_DIVIDE_MIN_HEIGHT: f32 = 60.0;

/// Marks of the rows where the engine and vkperft disagree.
const MISMATCH: Color32 = Color32::from_rgb(210, 50, 50);

pub enum ResultsAction {
    /// Make this move from the shown level and search its subtree.
    Descend(Move),
    /// Go back to the level with this index.
    WalkBack(usize),
    /// Search the shown level again with the table in this mode.
    Rerun(TtMode),
}

/// One row of the divide table: a move either side lists, with its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideRow {
    pub mv: String,
    /// vkperft's count; `None` for a move only the engine lists (not legal).
    pub nodes: Option<u128>,
    /// The engine's count, once compared; `None` also for a legal move it does not list.
    pub engine: Option<u128>,
}

impl DivideRow {
    /// Whether the engine was asked and disagrees on this move.
    fn mismatch(&self, compared: bool) -> bool {
        compared && self.nodes != self.engine
    }
}

/// The rows of `level`, in the chosen order (moves only the engine lists sort as 0 nodes).
pub fn divide_rows(level: &Level, order: DivideOrder) -> Vec<DivideRow> {
    let ours = level.divide().unwrap_or_default();
    let engine = level.engine.as_ref().map(|divide| &divide.moves);
    let mut rows: Vec<DivideRow> = ours
        .iter()
        .map(|(mv, &nodes)| DivideRow {
            mv: mv.clone(),
            nodes: Some(nodes),
            engine: engine.and_then(|moves| moves.get(mv).copied()),
        })
        .collect();
    if let Some(moves) = engine {
        rows.extend(
            moves
                .iter()
                .filter(|(mv, _)| !ours.contains_key(*mv))
                .map(|(mv, &count)| DivideRow {
                    mv: mv.clone(),
                    nodes: None,
                    engine: Some(count),
                }),
        );
    }
    let nodes = |row: &DivideRow| row.nodes.unwrap_or(0);
    match order {
        DivideOrder::MoveAscending => rows.sort_by(|a, b| a.mv.cmp(&b.mv)),
        DivideOrder::MoveDescending => rows.sort_by(|a, b| b.mv.cmp(&a.mv)),
        DivideOrder::NodesAscending => {
            rows.sort_by(|a, b| (nodes(a), &a.mv).cmp(&(nodes(b), &b.mv)))
        }
        DivideOrder::NodesDescending => {
            rows.sort_by(|a, b| (nodes(b), &a.mv).cmp(&(nodes(a), &b.mv)))
        }
    }
    rows
}

/// How the results are shown: the divide's order and statistics, and where the keyboard's
/// cursor is.
pub struct ResultsView<'a> {
    pub order: &'a mut DivideOrder,
    /// The divide table shows each move's statistics.
    pub divide_stats: &'a mut bool,
    /// The divide row the arrow keys chose, and whether they just moved to it (the table then
    /// scrolls it into view).
    pub cursor: Option<usize>,
    pub cursor_moved: bool,
    /// Changes whenever another level or result is shown (the divide table then opens at its
    /// top).
    pub generation: u64,
}

pub fn show(
    ui: &mut Ui,
    levels: &[Level],
    view: ResultsView<'_>,
    running: bool,
    check: &EngineCheckView,
) -> Option<ResultsAction> {
    let ResultsView {
        order,
        divide_stats,
        cursor,
        cursor_moved,
        generation,
    } = view;
    let mut action = None;
    let level = levels.last();
    ui.horizontal(|ui| {
        ui.heading("Results");
        // The copy buttons share the heading's line: a short panel keeps its height for the
        // divide.
        if let Some(result) = level.and_then(|level| level.result.as_ref()) {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                copy_buttons(ui, result);
            });
        }
    });
    let Some(level) = level else {
        engine_summary(ui, check);
        ui.weak("Set up a position and press Run.");
        return None;
    };
    // What is said about the result scrolls in the space the divide's first rows leave it.
    let above_divide = (ui.available_height() - DIVIDE_MIN_HEIGHT).max(ABOVE_DIVIDE_MIN_HEIGHT);
    let searched = egui::ScrollArea::vertical()
        .id_salt(("results-above-divide", generation))
        .max_height(above_divide)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            engine_summary(ui, check);
            breadcrumb(ui, levels, running, &mut action);
            about_level(ui, level, *order, running, &mut action)
        })
        .inner;
    if !searched {
        return action;
    }
    ui.separator();
    let with_stats = level
        .result
        .as_ref()
        .is_some_and(|result| result.move_stats);
    if with_stats {
        ui.checkbox(divide_stats, "Statistics per move")
            .on_hover_text("Each root move's move-type statistics in the divide table");
    }
    let table = DivideTable {
        order,
        stats: with_stats && *divide_stats,
        running,
        cursor,
        cursor_moved,
        generation,
    };
    divide_table(ui, level, table, &mut action);
    action
}

/// What the user's engine is doing or did: asked, failed, or where its walk ended.
fn engine_summary(ui: &mut Ui, check: &EngineCheckView) {
    if check.busy {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(&check.request);
        });
    }
    if let Some(error) = &check.error {
        ui.colored_label(MISMATCH, error);
    }
    let Some(finding) = &check.finding else {
        return;
    };
    let at = if finding.path.is_empty() {
        "at the root".to_string()
    } else {
        format!("after {}", moves_text(&finding.path))
    };
    let text = match &finding.difference {
        Difference::None => {
            ui.colored_label(
                Color32::from_rgb(40, 160, 70),
                format!("✔ Your engine agrees at depth {}", finding.depth),
            );
            return;
        }
        Difference::Moves { missing, extra } => {
            // Only the kinds found: an empty list said "extra none" in red.
            let mut found = Vec::new();
            if !missing.is_empty() {
                found.push(format!("missing {} (green)", moves_text(missing)));
            }
            if !extra.is_empty() {
                found.push(format!("extra {} (red)", extra.join(" ")));
            }
            format!("Bug found {at}: {}", found.join(", "))
        }
        Difference::Counts => format!("Bug found {at}: counts other than 1 at depth 1"),
        Difference::TotalOnly { expected, engine } => format!(
            "Your engine's total {at} is {} where every move agrees ({})",
            format::thousands(*engine),
            format::thousands(*expected)
        ),
        Difference::Inconsistent {
            expected,
            from_parent,
        } => format!(
            "Your engine counted {} {at} from the position before, {} here",
            format::thousands(*from_parent),
            format::thousands(*expected)
        ),
    };
    ui.colored_label(
        MISMATCH,
        format!("{text} ({} engine queries)", finding.queries),
    )
    .on_hover_text(finding.position.to_fen());
}

/// The shown level's total, the fast table's warning, the statistics and the engine's
/// verdict; false while it has no divide to show (searching, failed or cancelled).
fn about_level(
    ui: &mut Ui,
    level: &Level,
    order: DivideOrder,
    running: bool,
    action: &mut Option<ResultsAction>,
) -> bool {
    match (&level.result, &level.expected) {
        (Some(result), _) => {
            summary(ui, result);
            fast_explanation(ui, result, running, action);
            stats_table::show(ui, result);
        }
        (None, Some(expected)) => {
            ui.label(format!(
                "Depth {}: vkperft {}",
                level.depth,
                format::thousands(expected.values().sum())
            ));
        }
        (None, None) => {
            match &level.outcome {
                Some(outcome) => ui.label(outcome),
                None => ui.weak(format!("Searching depth {}…", level.depth)),
            };
            return false;
        }
    }
    if let Some(engine) = &level.engine {
        let ours: u128 = level.divide().unwrap_or_default().values().sum();
        let text = format!(
            "Engine at depth {}: {}",
            level.depth,
            format::thousands(engine.total())
        );
        let at_risk = level.result.as_ref().is_some_and(|result| {
            result
                .tt
                .as_ref()
                .is_some_and(|tt| tt.count_at_risk(result.counts.nodes).is_some())
        });
        if engine.total() == ours && divide_rows(level, order).iter().all(|r| !r.mismatch(true)) {
            ui.label(format!("{text}, agrees"));
        } else if at_risk {
            // The engine is not blamed while vkperft's own count may be the wrong one.
            ui.label(format!(
                "{text}, differs; vkperft's count may be wrong: rerun in verified"
            ));
        } else {
            ui.colored_label(MISMATCH, format!("{text}, differs"));
        }
    }
    true
}

/// Copy JSON and Copy text, right to left.
fn copy_buttons(ui: &mut Ui, result: &PerftResult) {
    if ui
        .small_button("Copy JSON")
        .on_hover_text("The result as `vkperft perft --json` prints it")
        .clicked()
    {
        let json = serde_json::to_string_pretty(&result.to_json(true)).unwrap_or_default();
        ui.ctx().copy_text(json);
    }
    if ui
        .small_button("Copy text")
        .on_hover_text("The result as `vkperft perft` prints it")
        .clicked()
    {
        ui.ctx().copy_text(result.report_text());
    }
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
            ui.label("Nodes")
                .on_hover_text("Leaf positions at the searched depth: the perft total");
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format::thousands(result.counts.nodes))
                        .strong()
                        .size(18.0),
                );
                reference_mark(ui, &fen, result);
            });
            ui.end_row();
            ui.label("Time")
                .on_hover_text("Wall-clock time of the run, and the total divided by it");
            ui.label(format!(
                "{} ({} nodes/s)",
                format::duration(result.elapsed),
                format::rate(result.nps())
            ));
            ui.end_row();
            ui.label("Run")
                .on_hover_text("Depth, backend (threads or device) and table mode");
            // A device name can be long: the line is cut, its hover shows it whole.
            let run = format!(
                "depth {}, TT {}, {}",
                result.depth,
                result.tt_mode,
                result.ran_on()
            );
            ui.add(egui::Label::new(&run).truncate())
                .on_hover_text(&run);
            ui.end_row();
            // The table's risk rows are in the live panel, which follows the shown result.
        });
}

/// The warning of a `fast` total that may be wrong: one that differs from the published value,
/// or one whose chance of a false hit is not negligible (published value or not), with how
/// many false hits the model expected and a rerun in a mode that has none.
fn fast_explanation(
    ui: &mut Ui,
    result: &PerftResult,
    running: bool,
    action: &mut Option<ResultsAction>,
) {
    let Some(tt) = result.tt.as_ref().filter(|tt| tt.mode == TtMode::Fast) else {
        return;
    };
    let risk = tt.risk(result.counts.nodes);
    let published = reference::published(&result.position.to_fen(), result.depth);
    let text = match published {
        Some(published) if published.nodes == result.counts.nodes => return,
        Some(published) => format!(
            "This fast run's table expected {} false hits with {} verifier bits \
             (P(any) {}): a false hit takes another position's count, so the total is off by \
             {}. verified or certify count exactly.",
            format::small(risk.expected_false_hits),
            tt.verifier_bits,
            format::small(risk.p_false_hit),
            format::thousands(published.nodes.abs_diff(result.counts.nodes)),
        ),
        None if tt.count_at_risk(result.counts.nodes).is_some() => format!(
            "vkperft's count may be wrong: this fast run's table expected {} false hits with \
             {} verifier bits (P(any) {}), and a false hit takes another position's count. \
             verified or certify count exactly.",
            format::small(risk.expected_false_hits),
            tt.verifier_bits,
            format::small(risk.p_false_hit),
        ),
        None => return,
    };
    // The reruns come first: the explanation under them may scroll out of a short panel.
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(MISMATCH, "⚠ This total may be wrong:");
        for (mode, hover) in [
            (TtMode::Verified, "Exact keys: no false hit possible"),
            (
                TtMode::Certify,
                "The fast table, with every false hit caught, counted and corrected",
            ),
        ] {
            if ui
                .add_enabled(!running, egui::Button::new(format!("Rerun in {mode}")))
                .on_hover_text(hover)
                .clicked()
            {
                *action = Some(ResultsAction::Rerun(mode));
            }
        }
    });
    ui.label(RichText::new(text).color(MISMATCH));
}

fn reference_mark(ui: &mut Ui, fen: &str, result: &PerftResult) {
    let Some(published) = reference::published(fen, result.depth) else {
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

/// How the divide table is shown.
struct DivideTable<'a> {
    order: &'a mut DivideOrder,
    /// With each move's move-type statistics.
    stats: bool,
    running: bool,
    cursor: Option<usize>,
    cursor_moved: bool,
    generation: u64,
}

fn divide_table(
    ui: &mut Ui,
    level: &Level,
    table: DivideTable<'_>,
    action: &mut Option<ResultsAction>,
) {
    let DivideTable {
        order,
        stats,
        running,
        cursor,
        cursor_moved,
        generation,
    } = table;
    let rows = divide_rows(level, *order);
    let move_stats: BTreeMap<String, MoveStats> = match (&level.result, stats) {
        (Some(result), true) => result
            .divide
            .iter()
            .map(|(mv, counts)| (mv.to_string(), counts.stats))
            .collect(),
        _ => BTreeMap::new(),
    };
    if rows.is_empty() {
        ui.weak("No legal moves.");
        return;
    }
    let compared = level.engine.is_some();
    let descend = !running && level.depth > 0;
    // Solid scroll bars take their own room: floating ones covered the counts' last digits and
    // the hover of a marked engine count.
    ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
    // A new salt per result: its scroll state starts at the top, with the sort header.
    egui::ScrollArea::both()
        .id_salt(("divide-scroll", generation))
        .auto_shrink([false, false])
        .show(ui, |ui| {
            egui::Grid::new("divide-grid")
                .striped(true)
                .num_columns(2 + usize::from(compared) + if stats { STAT_COUNT } else { 0 })
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
                    if compared {
                        ui.strong("Engine");
                    }
                    if stats {
                        stats_table::divide_headings(ui);
                    }
                    ui.end_row();
                    for (index, row) in rows.into_iter().enumerate() {
                        let legal = uci::parse_move(&level.position, &row.mv).ok();
                        let mismatch = row.mismatch(compared);
                        let mut label = RichText::new(&row.mv);
                        if mismatch {
                            label = label.color(MISMATCH);
                        }
                        let chosen = cursor == Some(index);
                        let descend_hint =
                            "Make this move and search its subtree (or the arrow keys and Enter)";
                        let hover = match mismatch {
                            true => format!("{}. {descend_hint}", mismatch_reason(&row)),
                            false => descend_hint.to_string(),
                        };
                        let mut button = ui
                            .add_enabled(
                                descend && legal.is_some(),
                                egui::Button::new(label).small().selected(chosen),
                            )
                            .on_hover_text(hover);
                        if mismatch {
                            button = button.on_disabled_hover_text(mismatch_reason(&row));
                        }
                        if chosen && cursor_moved {
                            button.scroll_to_me(None);
                        }
                        if button.clicked() {
                            if let Some(mv) = legal {
                                *action = Some(ResultsAction::Descend(mv));
                            }
                        }
                        let count =
                            |count: Option<u128>| count.map_or("–".to_string(), format::thousands);
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            ui.monospace(count(row.nodes));
                        });
                        if compared {
                            ui.with_layout(
                                egui::Layout::right_to_left(egui::Align::Center),
                                |ui| {
                                    let text = RichText::new(count(row.engine)).monospace();
                                    if mismatch {
                                        ui.label(text.color(MISMATCH))
                                            .on_hover_text(mismatch_reason(&row));
                                    } else {
                                        ui.label(text);
                                    }
                                },
                            );
                        }
                        if stats {
                            stats_table::divide_cells(ui, move_stats.get(&row.mv));
                        }
                        ui.end_row();
                    }
                });
        });
}

/// Why a row is marked.
fn mismatch_reason(row: &DivideRow) -> &'static str {
    match (row.nodes, row.engine) {
        (Some(_), None) => "Legal, but the engine does not list it",
        (None, Some(_)) => "The engine lists it, but it is not legal",
        _ => "The engine counts differently below this move",
    }
}
