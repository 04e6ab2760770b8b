//! Watching a plan folder of `vkperft work`: units done, nodes so far, rate and time left,
//! read again every second while a `work run` (in this process or any other) writes to it.

use crate::count::thousands;
use crate::work::{duration_text, read_journals, PlanFolder, Status};
use egui::Ui;
use std::path::Path;
use std::time::{Duration, Instant};

/// How often a watched plan is read again.
pub const REFRESH: Duration = Duration::from_secs(1);

#[derive(Default)]
pub struct PlanWatch {
    /// Whether the plan window is open.
    pub open: bool,
    /// The folder as typed.
    pub path: String,
    /// The status of the watched folder, or why it could not be read; `None` until one is
    /// chosen.
    pub status: Option<Result<Status, String>>,
    read_at: Option<Instant>,
}

impl PlanWatch {
    /// Starts watching the typed folder, reading it now.
    pub fn watch(&mut self) {
        self.status = Some(read_status(Path::new(self.path.trim())));
        self.read_at = Some(Instant::now());
    }

    /// Reads the watched folder again once [`REFRESH`] has passed; returns whether a plan is
    /// being watched (so the window keeps refreshing).
    pub fn refresh_if_due(&mut self) -> bool {
        let Some(read_at) = self.read_at else {
            return false;
        };
        if self.open && read_at.elapsed() >= REFRESH {
            self.watch();
        }
        self.open
    }
}

fn read_status(dir: &Path) -> Result<Status, String> {
    let plan = PlanFolder::open(dir).map_err(|e| e.to_string())?;
    let scan = read_journals(&plan).map_err(|e| e.to_string())?;
    Status::of(&plan, &scan).map_err(|e| e.to_string())
}

/// The plan window's contents.
pub fn show(ui: &mut Ui, watch: &mut PlanWatch) {
    ui.horizontal(|ui| {
        let label = ui.label("Plan folder");
        let field = ui.add(egui::TextEdit::singleline(&mut watch.path).desired_width(320.0));
        let entered = field.labelled_by(label.id).lost_focus()
            && ui.input(|input| input.key_pressed(egui::Key::Enter));
        if ui.button("Watch").clicked() || entered {
            watch.watch();
        }
    });
    match &watch.status {
        None => {
            ui.weak("A folder written by `vkperft work split`; runs may write to it meanwhile.");
        }
        Some(Err(error)) => {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {error}"));
        }
        Some(Ok(status)) => status_lines(ui, status),
    }
}

fn status_lines(ui: &mut Ui, status: &Status) {
    let fraction = if status.units == 0 {
        1.0
    } else {
        status.done as f32 / status.units as f32
    };
    ui.add(egui::ProgressBar::new(fraction).show_percentage());
    egui::Grid::new("plan-status")
        .num_columns(2)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.label(value);
                ui.end_row();
            };
            row(
                "Units done",
                format!(
                    "{} of {}",
                    thousands(status.done.into()),
                    thousands(status.units.into())
                ),
            );
            row("Nodes so far", thousands(status.nodes));
            row(
                "Shards complete",
                format!("{} of {}", status.shards_complete, status.shards),
            );
            row("Rate", format!("{:.1} Mnps", status.rate / 1e6));
            row(
                "Time left",
                status
                    .seconds_left
                    .map_or("no result yet".to_string(), |left| {
                        format!("{} (one process)", duration_text(left))
                    }),
            );
            row(
                "Trust",
                status
                    .trust
                    .map_or("no result yet".to_string(), |trust| trust.name()),
            );
            row(
                "Risk",
                format!(
                    "expected false hits {:.3e}, P(any) {:.3e}",
                    status.risk.count_expected_false_hits, status.risk.count_p_any
                ),
            );
            if status.conflicts > 0 {
                row("Conflicts", format!("{} units disagree", status.conflicts));
            }
        });
}
