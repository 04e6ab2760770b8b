//! The Suite window: open a suite file, run it against vkperft or the engine of the run panel,
//! watch its table fill, and click a failure to load its position and its walk into the board
//! and the divide table.

use crate::count::thousands;
use crate::suite::{self, DepthChoice, PositionResult, Task, Verdict, DEFAULT_MAX_NODES};
use egui::Ui;
use std::path::Path;

/// A suite file read, and the checks it asks for.
pub struct LoadedSuite {
    pub tasks: Vec<Task>,
    /// Bad lines passed over.
    pub skipped: usize,
    /// Depths over the node budget.
    pub left_out: usize,
}

pub struct SuiteView {
    /// Whether the window is open.
    pub open: bool,
    /// The file as typed.
    pub path: String,
    /// The node budget of a depth.
    pub max_nodes: u64,
    /// The file read, or why it could not be; `None` until one is opened.
    pub loaded: Option<Result<LoadedSuite, String>>,
    /// The result of each check so far.
    pub results: Vec<Option<PositionResult>>,
    /// A run is under way.
    pub running: bool,
    /// The run is against vkperft: its jobs hold the window's engine, so the run panel waits.
    pub on_vkperft: bool,
    /// How the last run ended, if not with every result.
    pub message: Option<String>,
}

impl Default for SuiteView {
    fn default() -> Self {
        SuiteView {
            open: false,
            path: String::new(),
            max_nodes: DEFAULT_MAX_NODES as u64,
            loaded: None,
            results: Vec::new(),
            running: false,
            on_vkperft: false,
            message: None,
        }
    }
}

/// What the user asked of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteAction {
    RunVkperft,
    RunEngine,
    Cancel,
    /// Load check `index`'s position and walk into the board and the divide table.
    Show(usize),
}

impl SuiteView {
    /// Reads the typed file (bad lines are passed over and counted).
    pub fn load(&mut self) {
        self.message = None;
        self.results.clear();
        let path = self.path.trim().to_string();
        self.loaded = Some(
            suite::read_suite_file(Path::new(&path), true)
                .map(|file| {
                    let skipped = file.skipped.len();
                    let selection =
                        suite::select(&[file], DepthChoice::MaxNodes(u128::from(self.max_nodes)));
                    LoadedSuite {
                        tasks: selection.tasks,
                        skipped,
                        left_out: selection.depths_left_out,
                    }
                })
                .map_err(|error| error.to_string()),
        );
    }

    /// The checks of the opened file, if it was read.
    pub fn tasks(&self) -> Option<&[Task]> {
        match &self.loaded {
            Some(Ok(loaded)) => Some(&loaded.tasks),
            _ => None,
        }
    }

    /// Clears the results for a new run, against vkperft or not.
    pub fn started(&mut self, on_vkperft: bool) {
        let count = self.tasks().map_or(0, <[Task]>::len);
        self.results = vec![None; count];
        self.running = true;
        self.on_vkperft = on_vkperft;
        self.message = None;
    }

    /// Whether a run against vkperft is under way: the window's engine runs its jobs.
    pub fn holds_engine(&self) -> bool {
        self.running && self.on_vkperft
    }
}

/// Why "Run against vkperft" waits while the window's own run is in flight.
const WINDOW_RUNNING: &str = "The run panel's run is under way; the suite waits for it";

/// The window's contents; `engine_set` says whether the run panel names an engine,
/// `window_running` whether the run panel's run is in flight (on the engine a suite against
/// vkperft would use).
pub fn show(
    ui: &mut Ui,
    view: &mut SuiteView,
    engine_set: bool,
    window_running: bool,
) -> Option<SuiteAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        let label = ui.label("Suite file");
        let field = ui.add(egui::TextEdit::singleline(&mut view.path).desired_width(300.0));
        let entered = field.labelled_by(label.id).lost_focus()
            && ui.input(|input| input.key_pressed(egui::Key::Enter));
        if ui
            .add_enabled(!view.running, egui::Button::new("Open"))
            .clicked()
            || entered
        {
            view.load();
        }
    });
    ui.horizontal(|ui| {
        ui.label("Depths up to")
            .on_hover_text("Each position runs every depth whose count is at most this many nodes");
        ui.add(
            egui::DragValue::new(&mut view.max_nodes)
                .range(1..=u64::MAX)
                .speed(1000.0),
        );
        ui.label("nodes");
    });
    let loaded = match &view.loaded {
        None => {
            ui.weak("An EPD (`FEN ;D1 20 ;D2 400`), .perft or tab-separated suite file.");
            return None;
        }
        Some(Err(error)) => {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {error}"));
            return None;
        }
        Some(Ok(loaded)) => loaded,
    };
    ui.label(format!(
        "{} checks ({} depths over the budget, {} bad lines passed over)",
        loaded.tasks.len(),
        loaded.left_out,
        loaded.skipped
    ));
    ui.horizontal(|ui| {
        let idle = !view.running && !loaded.tasks.is_empty();
        let vkperft_button = ui.add_enabled(
            idle && !window_running,
            egui::Button::new("▶ Run against vkperft"),
        );
        let vkperft_button = if window_running {
            vkperft_button.on_disabled_hover_text(WINDOW_RUNNING)
        } else {
            vkperft_button
        };
        if vkperft_button.clicked() {
            action = Some(SuiteAction::RunVkperft);
        }
        let engine_button = ui
            .add_enabled(
                idle && engine_set,
                egui::Button::new("▶ Run against the engine"),
            )
            .on_disabled_hover_text("Set the engine in the run panel first");
        if engine_button.clicked() {
            action = Some(SuiteAction::RunEngine);
        }
        if view.running && ui.button("■ Cancel suite").clicked() {
            action = Some(SuiteAction::Cancel);
        }
    });
    let done: Vec<&PositionResult> = view.results.iter().flatten().collect();
    let count = |wanted: fn(&Verdict) -> bool| done.iter().filter(|r| wanted(&r.verdict)).count();
    ui.label(format!(
        "{} of {} done: {} passed, {} failed, {} refused, {} engine errors",
        done.len(),
        loaded.tasks.len(),
        count(|v| *v == Verdict::Passed),
        count(|v| matches!(v, Verdict::Failed(_))),
        count(|v| matches!(v, Verdict::Refused(_))),
        count(|v| matches!(v, Verdict::EngineError(_))),
    ));
    if let Some(message) = &view.message {
        ui.colored_label(ui.visuals().warn_fg_color, message);
    }
    if let Some(clicked) = table(ui, &loaded.tasks, &view.results) {
        action = Some(SuiteAction::Show(clicked));
    }
    action
}

/// The FEN column's width: the board part of most FENs, the rest on hover.
const FEN_COLUMN_WIDTH: f32 = 280.0;

/// One row per check: the position's id (a button for a failure), its FEN, depth, counts,
/// result, time.
fn table(ui: &mut Ui, tasks: &[Task], results: &[Option<PositionResult>]) -> Option<usize> {
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt("suite-scroll")
        .max_height(360.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("suite-grid")
                .striped(true)
                .num_columns(6)
                .show(ui, |ui| {
                    for title in ["position", "FEN", "depth", "expected", "result", "time"] {
                        ui.strong(title);
                    }
                    ui.end_row();
                    for (index, task) in tasks.iter().enumerate() {
                        let result = results.get(index).and_then(Option::as_ref);
                        let failed =
                            result.is_some_and(|r| matches!(r.verdict, Verdict::Failed(_)));
                        if failed {
                            let text = format!("✘ {} depth {}", task.id, task.depth);
                            if ui.button(text).on_hover_text(&task.fen).clicked() {
                                clicked = Some(index);
                            }
                        } else {
                            ui.label(&task.id).on_hover_text(&task.fen);
                        }
                        // A file's line number alone does not say which position it is.
                        ui.add_sized(
                            [FEN_COLUMN_WIDTH, ui.spacing().interact_size.y],
                            egui::Label::new(egui::RichText::new(&task.fen).monospace()).truncate(),
                        )
                        .on_hover_text(&task.fen);
                        ui.label(task.depth.to_string());
                        ui.label(
                            result
                                .and_then(|r| r.expected)
                                .or(task.expected)
                                .map_or_else(|| "vkperft's".into(), thousands),
                        );
                        match result {
                            None => ui.weak("…"),
                            Some(result) => verdict_label(ui, result),
                        };
                        ui.label(
                            result.map_or_else(String::new, |r| format!("{:.2} s", r.seconds)),
                        );
                        ui.end_row();
                    }
                });
        });
    clicked
}

fn verdict_label(ui: &mut Ui, result: &PositionResult) -> egui::Response {
    let visuals = ui.visuals().clone();
    match &result.verdict {
        Verdict::Passed => ui.label("✔ pass"),
        Verdict::Failed(_) => ui
            .colored_label(visuals.error_fg_color, suite::headline(result))
            .on_hover_text(suite::drill_text(result)),
        Verdict::Refused(why) => ui
            .colored_label(visuals.warn_fg_color, "refused")
            .on_hover_text(why),
        Verdict::EngineError(why) => ui
            .colored_label(visuals.error_fg_color, "engine error")
            .on_hover_text(why),
    }
}
