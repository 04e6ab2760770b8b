//! The desktop window (`vkperft gui`): a board editor, a run panel, live statistics, results
//! with a divide walk, the history of runs, and the progress of a `vkperft work` plan. The UI state is plain data ([`AppState`]);
//! runs go to the engine thread as commands and come back as events drained every frame, so
//! the UI never blocks and never calls a backend.

mod backend;
mod board;
mod chess960_controls;
mod editor;
mod editor_panel;
mod engine_check;
mod engine_client;
mod fonts;
pub mod format;
mod history;
mod history_file;
mod keyboard;
mod layout;
mod level;
mod live;
mod live_run;
mod pieces;
mod plan_watch;
mod results;
mod risk_rows;
mod run_panel;
mod settings;
mod state;
mod stats_table;
mod suite_view;
mod suite_worker;
mod theme;
pub mod window;

pub use editor::Editor;
pub use layout::PanelRects;
pub use level::{DivideOrder, Level};
pub use plan_watch::PlanWatch;
pub use settings::{EngineKind, Settings};
pub use state::{AppState, LoadedAdvanced};
pub use suite_view::{SuiteAction, SuiteView};

use crate::backend::Device;
use crate::chess::{Move, Position};
use crate::engine::{BackendProvider, Backends};
use backend::device_named;
pub use backend::BackendSelection;
use engine_check::{CheckEvent, EngineCheck};
use engine_client::EngineClient;
use history::HistoryAction;
use keyboard::Shortcut;
use layout::Layout;
use results::ResultsAction;
use run_panel::{RunAction, RunStatus, SeedField};
use suite_worker::{SuiteEvent, SuiteWorker};

/// The app: its state and its connection to the engine.
pub struct VkperftApp {
    state: AppState,
    engine: EngineClient,
    /// The user's engine, asked off the UI thread.
    check: EngineCheck,
    /// The suite run under way.
    suite: SuiteWorker,
    /// Where the panels were drawn in the last frame.
    panel_rects: PanelRects,
}

impl VkperftApp {
    pub fn new(settings: Settings) -> VkperftApp {
        VkperftApp::with_backends(settings, Box::new(Backends::default()))
    }

    /// An app whose runs go to the backends `backends` hands out.
    pub fn with_backends(settings: Settings, backends: Box<dyn BackendProvider>) -> VkperftApp {
        VkperftApp {
            state: AppState::new(settings),
            engine: EngineClient::spawn(backends),
            check: EngineCheck::default(),
            suite: SuiteWorker::default(),
            panel_rects: PanelRects::default(),
        }
    }

    /// Keeps the history across restarts in `history.jsonl` in `folder`.
    pub fn keep_history_in(mut self, folder: &std::path::Path) -> VkperftApp {
        self.state.keep_history_in(history_file::path_in(folder));
        self
    }

    /// Registers the shipped font; call before the first frame (the window and the tests do).
    pub fn install_fonts(ctx: &egui::Context) {
        fonts::install(ctx);
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub fn state_mut(&mut self) -> &mut AppState {
        &mut self.state
    }

    /// Where the panels were drawn in the last frame.
    pub fn panel_rects(&self) -> PanelRects {
        self.panel_rects
    }

    /// One frame: take the engine's events, then draw every panel and act on what was asked.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.engine.attach(&ctx);
        for event in self.engine.drain() {
            self.state.handle(event);
        }
        for event in self.check.drain() {
            self.engine_answered(event);
        }
        self.state.engine_check.busy = self.check.is_busy();
        for event in self.suite.drain() {
            self.suite_answered(event);
        }
        theme::apply(&ctx, self.state.settings.dark_theme);

        let screen = ui.max_rect();
        let keys_free = keyboard::unfocused(&ctx);
        egui::Panel::top("top-bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("vkperft");
                ui.weak("exact chess perft");
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.toggle_value(&mut self.state.help_open, "Help")
                        .on_hover_text("The keyboard shortcuts (F1)");
                    theme::toggle(ui, &mut self.state.settings.dark_theme);
                    let watch = &mut self.state.plan_watch;
                    ui.toggle_value(&mut watch.open, "Plan…")
                        .on_hover_text("Watch the progress of a `vkperft work` plan folder");
                    ui.toggle_value(&mut self.state.suite.open, "Suite…")
                        .on_hover_text("Run a perft suite file against vkperft or your engine");
                });
            });
        });
        let body = ui.available_rect_before_wrap();
        let layout = Layout::for_body(body.width(), body.height(), self.state.history.len());
        if layout.history_full_width {
            self.history_panel(ui, &layout);
            self.editor_panel(ui, &layout);
        } else {
            self.editor_panel(ui, &layout);
            self.history_panel(ui, &layout);
        }
        self.central(ui, &layout);

        let cancellable = self.state.is_running() || self.check.is_busy();
        for shortcut in keyboard::pressed(&ctx, keys_free, cancellable) {
            self.shortcut(shortcut);
        }
        if keyboard::help_pressed(&ctx) {
            self.state.help_open = !self.state.help_open;
        }
        let mut open = self.state.help_open;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_pos([screen.right() - 420.0, screen.top() + 40.0])
            .show(&ctx, keyboard::help);
        self.state.help_open = open;

        let watch = &mut self.state.plan_watch;
        if watch.refresh_if_due() {
            ctx.request_repaint_after(plan_watch::REFRESH);
        }
        let mut open = watch.open;
        // It opens over the live panel, which a watched plan's runs elsewhere leave idle, not
        // over the history or the board.
        egui::Window::new("Plan progress")
            .open(&mut open)
            .default_pos([screen.right() - 520.0, screen.top() + 40.0])
            .default_width(480.0)
            .show(&ctx, |ui| plan_watch::show(ui, watch));
        watch.open = open;

        let mut open = self.state.suite.open;
        let engine_set = self.state.settings.engine_command().is_some();
        let mut suite_action = None;
        egui::Window::new("Perft suite")
            .open(&mut open)
            .default_pos([screen.right() - 560.0, screen.top() + 60.0])
            .default_width(520.0)
            .show(&ctx, |ui| {
                let window_running = self.state.is_running();
                suite_action =
                    suite_view::show(ui, &mut self.state.suite, engine_set, window_running);
            });
        self.state.suite.open = open;
        match suite_action {
            Some(SuiteAction::RunVkperft) => self.run_suite(&ctx, false),
            Some(SuiteAction::RunEngine) => self.run_suite(&ctx, true),
            Some(SuiteAction::Cancel) => self.suite.cancel(),
            Some(SuiteAction::Show(index)) => self.show_suite_result(index),
            None => {}
        }
    }

    /// Runs the opened suite against vkperft with the run panel's settings, or against the
    /// run panel's engine.
    pub fn run_suite(&mut self, ctx: &egui::Context, against_engine: bool) {
        let state = &mut self.state;
        // A suite against vkperft would queue behind the run panel's run on the one engine.
        if self.suite.is_busy() || (state.is_running() && !against_engine) {
            return;
        }
        let Some(tasks) = state.suite.tasks().map(<[crate::suite::Task]>::to_vec) else {
            return;
        };
        let subject = if against_engine {
            match state.settings.engine_command() {
                Some(command) => crate::suite::Subject::Engine(command),
                None => return,
            }
        } else {
            crate::suite::Subject::Vkperft {
                engine: self.engine.another_client(),
                spec: state.spec(Position::startpos(), 1),
            }
        };
        let threads = state.settings.threads.max(1);
        let settings = crate::suite::RunSettings {
            jobs: threads,
            timeout: state.settings.engine_deadline(),
            max_queries: engine_check::MAX_QUERIES,
            drill_down: true,
            chess960: false,
            threads,
        };
        state.suite.started(!against_engine);
        self.suite.start(ctx, tasks, subject, settings);
    }

    /// What the suite run said: a result, or its end.
    fn suite_answered(&mut self, event: SuiteEvent) {
        let view = &mut self.state.suite;
        match event {
            SuiteEvent::Result(index, result) => {
                if let Some(slot) = view.results.get_mut(index) {
                    *slot = Some(*result);
                }
            }
            SuiteEvent::Ended(ended) => {
                view.running = false;
                view.message = ended.err();
            }
        }
    }

    /// Puts check `index`'s position on the board and its walk (each comparison a level) in
    /// the divide table, with the finding's moves marked.
    pub fn show_suite_result(&mut self, index: usize) {
        if self.state.is_running() || self.check.is_busy() {
            return;
        }
        let state = &mut self.state;
        let Some(Some(result)) = state.suite.results.get(index).cloned() else {
            return;
        };
        let Ok(root) = Position::from_fen(&result.task.fen) else {
            return;
        };
        let mut levels = vec![Level::new(root, result.task.depth, None)];
        if let crate::suite::Verdict::Failed(crate::suite::Drill::Found { finding, steps }) =
            &result.verdict
        {
            levels = steps
                .iter()
                .map(|step| Level {
                    expected: Some(step.expected.clone()),
                    engine: Some(step.engine.clone()),
                    ..Level::new(step.position, step.depth, step.path.last().copied())
                })
                .collect();
            state.engine_check.finding = Some(finding.as_ref().clone());
        } else {
            state.engine_check.finding = None;
        }
        state.engine_check.error = None;
        state.live = None;
        if let Some(last) = levels.last() {
            let position = last.position;
            state.editor.set_position(&position);
        }
        state.levels = levels;
        state.results_changed();
    }

    /// The board and its editor, scrolling when the window is too short for them.
    fn editor_panel(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let panel = egui::Panel::left("editor")
            .resizable(false)
            .exact_size(layout.editor_width)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("editor-scroll")
                    .show(ui, |ui| {
                        let state = &mut self.state;
                        let marks = state.engine_check.marks(state.editor.position());
                        editor_panel::show(
                            ui,
                            &mut state.editor,
                            &mut state.controls,
                            &marks,
                            layout.board_side,
                        );
                    });
            });
        self.panel_rects.editor = panel.response.rect;
    }

    /// The history along the bottom: under the panels beside the board, or under the whole
    /// window when they are too narrow for its table.
    fn history_panel(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let mut action = None;
        let panel = egui::Panel::bottom("history")
            .resizable(false)
            .exact_size(layout.history_height)
            .show(ui, |ui| {
                let state = &mut self.state;
                action = history::show(
                    ui,
                    &state.history,
                    &mut state.history_selection,
                    state.history_note.as_deref(),
                );
            });
        self.panel_rects.history = panel.response.rect;
        match action {
            Some(HistoryAction::Reload(index)) => self.reload(index),
            None => {}
        }
    }

    /// The run panel over the results, and the live panel beside them.
    fn central(&mut self, ui: &mut egui::Ui, layout: &Layout) {
        let mut run_action = None;
        let mut results_action = None;
        egui::Panel::left("run-and-results")
            .resizable(false)
            .exact_size(layout.middle_width)
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                let run = egui::Panel::top("run")
                    .resizable(false)
                    .exact_size(layout.run_height)
                    .show(ui, |ui| {
                        let state = &mut self.state;
                        let blocker = state.run_blocker().map(str::to_string);
                        let comparable = state.levels.last().is_some_and(|level| {
                            level.result.is_some() || level.expected.is_some()
                        });
                        run_action = run_panel::show(
                            ui,
                            self.engine.devices(),
                            &mut state.settings,
                            &mut state.seed,
                            RunStatus {
                                blocker: blocker.as_deref(),
                                running: state.running.is_some(),
                                engine_busy: state.engine_check.busy,
                                comparable,
                                suite_running: state.suite.holds_engine(),
                            },
                        );
                    });
                self.panel_rects.run = run.response.rect;
                let results = egui::CentralPanel::default().show(ui, |ui| {
                    let state = &mut self.state;
                    results_action = results::show(
                        ui,
                        &state.levels,
                        results::ResultsView {
                            order: &mut state.divide_order,
                            divide_stats: &mut state.divide_stats,
                            cursor: state.divide_cursor,
                            cursor_moved: std::mem::take(&mut state.divide_cursor_moved),
                            generation: state.results_generation,
                        },
                        state.running.is_some()
                            || state.engine_check.busy
                            || state.suite.holds_engine(),
                        &state.engine_check,
                    );
                });
                self.panel_rects.results = results.response.rect;
            });
        let live =
            egui::CentralPanel::default().show(ui, |ui| live::show(ui, self.state.live.as_ref()));
        self.panel_rects.live = live.response.rect;

        match run_action {
            Some(RunAction::Run) => self.run_from_editor(),
            Some(RunAction::Cancel) => self.cancel(),
            Some(RunAction::Compare) => self.compare(ui.ctx()),
            Some(RunAction::FindTheBug) => self.find_the_bug(ui.ctx()),
            None => {}
        }
        match results_action {
            Some(ResultsAction::Descend(mv)) => self.descend(mv),
            Some(ResultsAction::WalkBack(index)) => self.walk_back(index),
            Some(ResultsAction::Rerun(mode)) => self.rerun(mode),
            None => {}
        }
    }

    /// Does what a keyboard shortcut asks.
    pub fn shortcut(&mut self, shortcut: Shortcut) {
        let state = &mut self.state;
        let rows = state.levels.last().map_or(Vec::new(), |level| {
            results::divide_rows(level, state.divide_order)
        });
        let last_row = rows.len().saturating_sub(1);
        match shortcut {
            Shortcut::Run => self.run_from_editor(),
            Shortcut::Cancel => self.cancel(),
            Shortcut::FlipBoard => state.controls.flipped = !state.controls.flipped,
            Shortcut::CursorUp | Shortcut::CursorDown if !rows.is_empty() => {
                state.divide_cursor = Some(match (shortcut, state.divide_cursor) {
                    (_, None) => 0,
                    (Shortcut::CursorUp, Some(row)) => row.saturating_sub(1),
                    (_, Some(row)) => (row + 1).min(last_row),
                });
                state.divide_cursor_moved = true;
            }
            Shortcut::CursorUp | Shortcut::CursorDown => {}
            Shortcut::Descend => {
                let chosen = state.divide_cursor.and_then(|row| rows.get(row));
                let legal = chosen.zip(state.levels.last()).and_then(|(row, level)| {
                    crate::chess::uci::parse_move(&level.position, &row.mv).ok()
                });
                if let Some(mv) = legal.filter(|_| !self.check.is_busy()) {
                    self.descend(mv);
                }
            }
            Shortcut::WalkBack => {
                if let Some(previous) = state.levels.len().checked_sub(2) {
                    self.walk_back(previous);
                }
            }
        }
    }

    /// Run: the editor's position at the chosen depth becomes the root of a new walk.
    pub fn run_from_editor(&mut self) {
        if self.state.is_running()
            || self.state.run_blocker().is_some()
            || self.state.suite.holds_engine()
        {
            return;
        }
        let Some(position) = self.state.editor.position().copied() else {
            return;
        };
        let depth = self.state.settings.depth;
        self.state.levels = vec![Level::new(position, depth, None)];
        self.start(position, depth);
    }

    /// Cancels the run in flight, or kills the user's engine while it is asked.
    pub fn cancel(&mut self) {
        if let Some(id) = self.state.running {
            self.engine.cancel(id);
        }
        if let Some(message) = self.check.cancel() {
            self.state.engine_check.busy = false;
            self.state.engine_check.error = Some(message);
        }
    }

    /// Searches the shown level again with the table in `mode`.
    pub fn rerun(&mut self, mode: crate::tt::TtMode) {
        if self.state.is_running() || self.check.is_busy() || self.state.suite.holds_engine() {
            return;
        }
        let Some(level) = self.state.levels.last_mut() else {
            return;
        };
        *level = Level::new(level.position, level.depth, level.via);
        let (position, depth) = (level.position, level.depth);
        self.state.settings.tt_mode = mode;
        self.start(position, depth);
    }

    /// Puts history row `index`'s position on the board and its settings in the run panel.
    pub fn reload(&mut self, index: usize) {
        if self.state.is_running() || self.check.is_busy() {
            return;
        }
        let state = &mut self.state;
        let Some(row) = state.history.get(index) else {
            return;
        };
        let result = row.result.clone();
        let kept = state.before_load.map_or(
            (state.settings.verifier_bits, state.settings.zobrist_seed),
            |load| load.kept,
        );
        let settings = &mut state.settings;
        settings.depth = result.depth;
        settings.tt_mode = result.tt_mode;
        settings.zobrist_seed = result.zobrist_seed;
        if let Some(tt) = &result.tt {
            settings.tt_mb = (tt.bytes >> 20).max(1);
            settings.verifier_bits = tt.verifier_bits;
        }
        match &result.device {
            Device::Cpu { threads } => {
                settings.backend = BackendSelection::Cpu;
                settings.threads = (*threads).max(1);
            }
            Device::Vulkan { name } => {
                let devices = self.engine.devices().unwrap_or_default();
                if let Some(device) = device_named(devices, name) {
                    settings.backend = device;
                }
            }
        }
        state.before_load = Some(LoadedAdvanced {
            kept,
            loaded: (settings.verifier_bits, settings.zobrist_seed),
        });
        state.seed = SeedField::new(result.zobrist_seed);
        state.editor.set_position(&result.position);
        state.levels = vec![Level {
            result: Some(result.clone()),
            ..Level::new(result.position, result.depth, None)
        }];
        state.follow_shown_level();
    }

    /// Asks the user's engine for its divide of the shown level, to show beside vkperft's.
    pub fn compare(&mut self, ctx: &egui::Context) {
        let state = &mut self.state;
        let Some(command) = state.settings.engine_command() else {
            return;
        };
        if state.is_running() || self.check.is_busy() {
            return;
        }
        let Some(level) = state.levels.last() else {
            return;
        };
        // The Depth field says the depth asked, whatever the shown result's: a deeper result
        // on screen must not send the engine on a search many times longer.
        let depth = state.settings.depth;
        let exact_threads = (level.depth != depth).then_some(state.settings.threads.max(1));
        state.engine_check.error = None;
        let deadline = state.settings.engine_deadline();
        self.check.compare(
            ctx,
            command,
            deadline,
            (level.position, depth),
            exact_threads,
        );
        state.engine_check.asking(format!(
            "Asking your engine for its divide at depth {depth}…"
        ));
    }

    /// Walks from the editor's position at the chosen depth to the first position where the
    /// user's engine goes wrong; each comparison becomes a level of the results walk.
    pub fn find_the_bug(&mut self, ctx: &egui::Context) {
        let state = &mut self.state;
        let Some(command) = state.settings.engine_command() else {
            return;
        };
        if state.is_running() || self.check.is_busy() || state.run_blocker().is_some() {
            return;
        }
        let Some(root) = state.editor.position().copied() else {
            return;
        };
        state.levels.clear();
        state.live = None;
        state.results_changed();
        state.engine_check.finding = None;
        state.engine_check.error = None;
        let threads = state.settings.threads.max(1);
        let deadline = state.settings.engine_deadline();
        let depth = state.settings.depth.max(1);
        self.check
            .hunt(ctx, command, deadline, root, depth, threads);
        state.engine_check.asking(format!(
            "Walking with your engine from depth {depth} to its first wrong position…"
        ));
    }

    /// What the user's engine said: a compared divide, a step of the walk, its end, or why it
    /// could not answer.
    fn engine_answered(&mut self, event: CheckEvent) {
        let state = &mut self.state;
        match event {
            CheckEvent::Compared {
                depth,
                engine,
                expected,
            } => {
                let Some(level) = state.levels.last_mut() else {
                    return;
                };
                match expected {
                    // Asked at another depth than the shown result's: the level becomes the
                    // comparison at the asked depth, as a hunt's levels are.
                    Some(expected) => {
                        *level = Level {
                            expected: Some(expected),
                            engine: Some(engine),
                            ..Level::new(level.position, depth, level.via)
                        };
                        state.live = None;
                        state.results_changed();
                    }
                    None => level.engine = Some(engine),
                }
            }
            CheckEvent::Step(step) => {
                state.levels.push(Level {
                    expected: Some(step.expected),
                    engine: Some(step.engine),
                    ..Level::new(step.position, step.depth, step.path.last().copied())
                });
                state.results_changed();
            }
            CheckEvent::Found(finding) => {
                if let Some(level) = state.levels.last() {
                    let position = level.position;
                    state.editor.set_position(&position);
                }
                state.engine_check.finding = Some(finding);
            }
            CheckEvent::Failed(error) => state.engine_check.error = Some(error),
        }
    }

    /// Makes `mv` from the shown level, puts it on the board and searches its subtree one ply
    /// shallower.
    pub fn descend(&mut self, mv: Move) {
        if self.state.is_running() || self.state.suite.holds_engine() {
            return;
        }
        let Some(level) = self.state.levels.last() else {
            return;
        };
        let Some(depth) = level.depth.checked_sub(1) else {
            return;
        };
        let position = level.position.play(mv);
        self.state
            .levels
            .push(Level::new(position, depth, Some(mv)));
        self.state.editor.set_position(&position);
        self.start(position, depth);
    }

    /// Back to level `index` of the walk, with its result and its position on the board.
    pub fn walk_back(&mut self, index: usize) {
        if self.state.is_running() || index >= self.state.levels.len() {
            return;
        }
        self.state.levels.truncate(index + 1);
        if let Some(level) = self.state.levels.last() {
            let position: Position = level.position;
            self.state.editor.set_position(&position);
        }
        self.state.follow_shown_level();
    }

    fn start(&mut self, position: Position, depth: u32) {
        let id = self.engine.next_job_id();
        match self.state.job(id, position, depth) {
            Ok(job) => {
                self.state.started(&job);
                self.engine.run(job);
            }
            Err(error) => self.state.refused(error),
        }
    }
}

impl eframe::App for VkperftApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.state.settings_to_save().save(storage);
    }
}
