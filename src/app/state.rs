//! Everything the window shows, as plain data: settings, the editor, the run in flight, the
//! results walk, the history and a watched plan. Engine events update it; the panels read and edit it.

use super::editor::Editor;
use super::editor_panel::EditorControls;
use super::history::HistoryRow;
use super::history_file::{self, StoredRun};
use super::level::{DivideOrder, Level};
use super::live_run::{LiveRun, RunEnd};
use super::plan_watch::PlanWatch;
use super::run_panel::SeedField;
use super::settings::Settings;
use super::suite_view::SuiteView;
use crate::chess::{Position, Square};
use crate::engine::{Event, Job, JobId, JobSpec, JobSpecError, PerftResult};
use crate::hunt::{Difference, Finding};
use std::path::PathBuf;
use std::sync::Arc;

pub struct AppState {
    pub settings: Settings,
    pub editor: Editor,
    pub controls: EditorControls,
    pub seed: SeedField,
    /// The results walk: the searched root, then one level per move made from the divide.
    pub levels: Vec<Level>,
    pub divide_order: DivideOrder,
    /// The divide table shows each root move's move-type statistics (when the run has them).
    pub divide_stats: bool,
    /// The run in flight, or the last one (kept on screen after it ends).
    pub live: Option<LiveRun>,
    pub running: Option<JobId>,
    pub history: Vec<HistoryRow>,
    /// The file the history is kept in across restarts, if any.
    pub history_file: Option<PathBuf>,
    /// What to say about that file: runs skipped at startup, a failed write.
    pub history_note: Option<String>,
    /// The history rows picked to compare (at most two, by index).
    pub history_selection: Vec<usize>,
    /// Changes whenever the results panel shows another level or result, so that the divide
    /// table opens at its top.
    pub results_generation: u64,
    /// A plan folder being watched.
    pub plan_watch: PlanWatch,
    /// The user's engine: asked, and what it said.
    pub engine_check: EngineCheckView,
    /// The Suite window: a suite file and its results.
    pub suite: SuiteView,
    /// The Advanced settings a loaded history row replaced, to save instead of the row's.
    pub before_load: Option<LoadedAdvanced>,
    /// The divide table's row the arrow keys moved to (in the shown order), if any.
    pub divide_cursor: Option<usize>,
    /// The cursor moved since the table was last drawn.
    pub divide_cursor_moved: bool,
    /// The Help window with the keyboard shortcuts is open.
    pub help_open: bool,
}

/// The verifier width and Zobrist seed of the Advanced section: a history row loads its own
/// for its run, but the ones saved for later sessions stay those the user chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadedAdvanced {
    /// What the settings were before the load.
    pub kept: (u32, u64),
    /// What the loaded row set them to.
    pub loaded: (u32, u64),
}

/// The state of comparing with the user's engine.
#[derive(Default)]
pub struct EngineCheckView {
    /// A request is with the engine.
    pub busy: bool,
    /// What it was asked, in words with the depth.
    pub request: String,
    /// Where the last "Find the bug" walk ended.
    pub finding: Option<Finding>,
    /// Why the last request failed.
    pub error: Option<String>,
}

impl EngineCheckView {
    /// Records that a request went to the engine.
    pub fn asking(&mut self, request: String) {
        self.busy = true;
        self.request = request;
    }

    /// The missing (true) and extra (false) moves of the finding, to mark on the board while it
    /// shows `position`.
    pub fn marks(&self, position: Option<&Position>) -> Vec<(Square, Square, bool)> {
        let (Some(finding), Some(position)) = (&self.finding, position) else {
            return Vec::new();
        };
        if *position != finding.position {
            return Vec::new();
        }
        let Difference::Moves { missing, extra } = &finding.difference else {
            return Vec::new();
        };
        // The extra moves are not moves of the position, only the engine's words for them.
        let squares =
            |mv: &String| Some((Square::parse(mv.get(0..2)?)?, Square::parse(mv.get(2..4)?)?));
        missing
            .iter()
            .map(|mv| (mv.from(), mv.uci_target(), true))
            .chain(
                extra
                    .iter()
                    .filter_map(|mv| squares(mv).map(|(from, to)| (from, to, false))),
            )
            .collect()
    }
}

impl AppState {
    pub fn new(settings: Settings) -> AppState {
        AppState {
            editor: Editor::from_fen(&settings.fen),
            controls: EditorControls::default(),
            seed: SeedField::new(settings.zobrist_seed),
            levels: Vec::new(),
            divide_order: DivideOrder::default(),
            divide_stats: false,
            live: None,
            running: None,
            history: Vec::new(),
            history_file: None,
            history_note: None,
            history_selection: Vec::new(),
            results_generation: 0,
            plan_watch: PlanWatch::default(),
            engine_check: EngineCheckView::default(),
            suite: SuiteView::default(),
            before_load: None,
            divide_cursor: None,
            divide_cursor_moved: false,
            help_open: false,
            settings,
        }
    }

    /// Keeps the history in `path`: the runs already there come first.
    pub fn keep_history_in(&mut self, path: PathBuf) {
        let loaded = history_file::load(&path);
        self.history = loaded
            .runs
            .into_iter()
            .map(|(stored, result)| HistoryRow::named(Arc::new(result), stored.name))
            .collect();
        self.history_note = loaded.note;
        self.history_file = Some(path);
    }

    /// Writes the history to its file, if it has one.
    fn save_history(&mut self) {
        let Some(path) = &self.history_file else {
            return;
        };
        let runs: Vec<StoredRun> = self
            .history
            .iter()
            .map(|row| StoredRun::of(&row.result, &row.name))
            .collect();
        if let Err(error) = history_file::save(path, &runs) {
            self.history_note = Some(format!("The history is not kept: {error}"));
        }
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Why Run is unavailable, if it is.
    pub fn run_blocker(&self) -> Option<&str> {
        self.editor.error().or(self.seed.error.as_deref())
    }

    /// A job for `position` at `depth` with the run panel's settings.
    pub fn job(&self, id: JobId, position: Position, depth: u32) -> Result<Job, JobSpecError> {
        self.spec(position, depth).job(id)
    }

    /// The run panel's settings for `position` at `depth`.
    pub fn spec(&self, position: Position, depth: u32) -> JobSpec {
        let settings = &self.settings;
        JobSpec {
            backend: settings.backend.choice(),
            device: settings.backend.device(),
            threads: Some(settings.threads.max(1)),
            tt_mode: settings.tt_mode,
            tt_mb: Some(settings.tt_mb),
            verifier_bits: settings.verifier_bits,
            zobrist_seed: settings.zobrist_seed,
            move_stats: settings.move_stats,
            stats_every_depth: true,
            ..JobSpec::new(position, depth)
        }
    }

    /// Records that the run panel's settings make no job (e.g. a depth out of range from old
    /// saved settings).
    pub fn refused(&mut self, error: JobSpecError) {
        self.set_outcome(format!("Cannot run: {error}"));
    }

    /// Records that `job` went to the engine for the last level of the walk.
    /// The messages about the previous result (the engine's verdict, its errors) go with it.
    pub fn started(&mut self, job: &Job) {
        self.running = Some(job.id);
        self.live = Some(LiveRun::new(job.id, job.depth, job.tt.mode));
        self.engine_check.finding = None;
        self.engine_check.error = None;
        self.results_changed();
    }

    /// The results panel shows another level or result.
    pub fn results_changed(&mut self) {
        self.results_generation += 1;
        self.divide_cursor = None;
    }

    /// The live panel follows the breadcrumb: it shows the shown level's finished run, if it
    /// has one (a level a hunt compared has none).
    pub fn follow_shown_level(&mut self) {
        self.live = self.levels.last().and_then(|level| {
            level
                .live
                .clone()
                .or_else(|| level.result.as_deref().map(LiveRun::of_result))
        });
        self.results_changed();
    }

    pub fn handle(&mut self, event: Event) {
        if Some(event.job()) != self.running {
            return;
        }
        match event {
            Event::Started { .. } => {}
            Event::Progress { progress, .. } => {
                if let Some(live) = self.live.as_mut() {
                    live.record(*progress);
                }
            }
            Event::RootMoveDone { .. } => {
                if let Some(live) = self.live.as_mut() {
                    live.roots_done += 1;
                }
            }
            Event::Finished { result, .. } => {
                let result: Arc<PerftResult> = Arc::from(result);
                let root = self
                    .levels
                    .first()
                    .map_or_else(|| result.position.to_fen(), |level| level.position.to_fen());
                let path: Vec<String> = self
                    .levels
                    .iter()
                    .filter_map(|level| level.via.map(|mv| mv.to_string()))
                    .collect();
                self.history
                    .push(HistoryRow::of(result.clone(), &root, &path));
                self.save_history();
                if let Some(live) = self.live.as_mut() {
                    live.finish(&result);
                }
                if let Some(level) = self.levels.last_mut() {
                    level.result = Some(result);
                    level.live = self.live.clone();
                }
                self.results_changed();
                self.end_run(RunEnd::Finished);
            }
            Event::Failed { error, .. } => {
                self.set_outcome(format!("The run failed: {error}"));
                self.end_run(RunEnd::Failed);
            }
            Event::Cancelled { .. } => {
                self.set_outcome("Cancelled.".to_string());
                self.end_run(RunEnd::Cancelled);
            }
        }
    }

    fn set_outcome(&mut self, outcome: String) {
        if let Some(level) = self.levels.last_mut() {
            level.outcome = Some(outcome);
        }
    }

    fn end_run(&mut self, end: RunEnd) {
        self.running = None;
        if let Some(live) = self.live.as_mut() {
            live.end = Some(end);
        }
    }

    /// Runs with `bits` verifier bits from now on, without saving them for later sessions.
    pub fn use_verifier_bits_this_session(&mut self, bits: u32) {
        let kept = self.before_load.map_or(
            (self.settings.verifier_bits, self.settings.zobrist_seed),
            |load| load.kept,
        );
        self.settings.verifier_bits = bits;
        self.before_load = Some(LoadedAdvanced {
            kept,
            loaded: (bits, self.settings.zobrist_seed),
        });
    }

    /// The settings as they stand, with the editor's FEN.
    /// The settings for later sessions: a loaded row's verifier width and seed are not among
    /// them unless the user changed them since.
    pub fn settings_to_save(&self) -> Settings {
        let mut settings = Settings {
            fen: self.editor.fen_text().to_string(),
            ..self.settings.clone()
        };
        if let Some(load) = self.before_load {
            if (settings.verifier_bits, settings.zobrist_seed) == load.loaded {
                (settings.verifier_bits, settings.zobrist_seed) = load.kept;
            }
        }
        settings
    }
}
