//! Everything the window shows, as plain data: settings, the editor, the run in flight, the
//! results walk, the history and a watched plan. Engine events update it; the panels read and edit it.

use super::editor::Editor;
use super::editor_panel::EditorControls;
use super::history::HistoryRow;
use super::level::{DivideOrder, Level};
use super::live_run::LiveRun;
use super::plan_watch::PlanWatch;
use super::run_panel::SeedField;
use super::settings::Settings;
use crate::chess::{Position, Square};
use crate::engine::{Event, Job, JobId, JobSpec, JobSpecError};
use crate::hunt::{Difference, Finding};
use std::sync::Arc;

pub struct AppState {
    pub settings: Settings,
    pub editor: Editor,
    pub controls: EditorControls,
    pub seed: SeedField,
    /// The results walk: the searched root, then one level per move made from the divide.
    pub levels: Vec<Level>,
    pub divide_order: DivideOrder,
    /// The run in flight, or the last one (kept on screen after it ends).
    pub live: Option<LiveRun>,
    pub running: Option<JobId>,
    pub history: Vec<HistoryRow>,
    /// A plan folder being watched.
    pub plan_watch: PlanWatch,
    /// The user's engine: asked, and what it said.
    pub engine_check: EngineCheckView,
}

/// The state of comparing with the user's engine.
#[derive(Default)]
pub struct EngineCheckView {
    /// A request is with the engine.
    pub busy: bool,
    /// Where the last "Find the bug" walk ended.
    pub finding: Option<Finding>,
    /// Why the last request failed.
    pub error: Option<String>,
}

impl EngineCheckView {
    /// The missing (true) and extra (false) moves of the finding, to mark on the board while it
    /// shows `position`.
    pub fn marks(&self, position: Option<&Position>) -> Vec<(Square, Square, bool)> {
        let (Some(finding), Some(position)) = (&self.finding, position) else {
            return Vec::new();
        };
        if position.to_fen() != finding.fen {
            return Vec::new();
        }
        let Difference::Moves { missing, extra } = &finding.difference else {
            return Vec::new();
        };
        let squares =
            |mv: &String| Some((Square::parse(mv.get(0..2)?)?, Square::parse(mv.get(2..4)?)?));
        missing
            .iter()
            .filter_map(|mv| squares(mv).map(|(from, to)| (from, to, true)))
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
            live: None,
            running: None,
            history: Vec::new(),
            plan_watch: PlanWatch::default(),
            engine_check: EngineCheckView::default(),
            settings,
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
        let settings = &self.settings;
        let spec = JobSpec {
            backend: settings.backend.choice(),
            device: settings.backend.device(),
            threads: Some(settings.threads.max(1)),
            tt_mode: settings.tt_mode,
            tt_mb: Some(settings.tt_mb),
            verifier_bits: settings.verifier_bits,
            zobrist_seed: settings.zobrist_seed,
            ..JobSpec::new(position, depth)
        };
        spec.job(id)
    }

    /// Records that the run panel's settings make no job (e.g. a depth out of range from old
    /// saved settings).
    pub fn refused(&mut self, error: JobSpecError) {
        self.set_outcome(format!("Cannot run: {error}"));
    }

    /// Records that `job` went to the engine for the last level of the walk.
    pub fn started(&mut self, job: &Job) {
        self.running = Some(job.id);
        self.live = Some(LiveRun::new(job.id, job.depth, job.tt.mode));
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
                self.history.push(HistoryRow::of(&result));
                if let Some(live) = self.live.as_mut() {
                    live.finish(&result);
                }
                if let Some(level) = self.levels.last_mut() {
                    level.result = Some(Arc::from(result));
                }
                self.end_run();
            }
            Event::Failed { error, .. } => {
                self.set_outcome(format!("The run failed: {error}"));
                self.end_run();
            }
            Event::Cancelled { .. } => {
                self.set_outcome("Cancelled.".to_string());
                self.end_run();
            }
        }
    }

    fn set_outcome(&mut self, outcome: String) {
        if let Some(level) = self.levels.last_mut() {
            level.outcome = Some(outcome);
        }
    }

    fn end_run(&mut self) {
        self.running = None;
        if let Some(live) = self.live.as_mut() {
            live.ended = true;
        }
    }

    /// The settings as they stand, with the editor's FEN.
    pub fn settings_to_save(&self) -> Settings {
        Settings {
            fen: self.editor.fen_text().to_string(),
            ..self.settings.clone()
        }
    }
}
