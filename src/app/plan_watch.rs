//! Watching a plan folder of `vkperft work`: units done, nodes so far, rate and time left,
//! read again every second while a `work run` (in this process or any other) writes to it;
//! once every unit has a result, its merged total beside the published value.

use crate::count::thousands;
use crate::reference::{self, Published};
use crate::work::{duration_text, merge, read_journals, Merged, PlanFolder, Status, Trust};
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
    /// The merged total of the watched plan, or why there is none; `None` until asked.
    pub merged: Option<Result<MergedTotal, String>>,
    read_at: Option<Instant>,
}

/// A plan's total as `work merge` makes it, with the published value of its root and depth.
#[derive(Clone, Debug)]
pub struct MergedTotal {
    pub nodes: u128,
    pub trust: Trust,
    pub published: Option<Published>,
}

impl PlanWatch {
    /// Starts watching the typed folder, reading it now.
    pub fn watch(&mut self) {
        self.merged = None;
        self.read();
    }

    fn read(&mut self) {
        self.status = Some(read_status(Path::new(self.path.trim())));
        self.read_at = Some(Instant::now());
    }

    /// Merges the watched plan's results, as `work merge` does (its paths checked against the
    /// root first).
    pub fn merge(&mut self) {
        self.merged = Some(merged_total(Path::new(self.path.trim())));
    }

    /// Reads the watched folder again once [`REFRESH`] has passed; returns whether a plan is
    /// being watched (so the window keeps refreshing).
    pub fn refresh_if_due(&mut self) -> bool {
        let Some(read_at) = self.read_at else {
            return false;
        };
        if self.open && read_at.elapsed() >= REFRESH {
            self.read();
        }
        self.open
    }
}

fn read_status(dir: &Path) -> Result<Status, String> {
    let plan = PlanFolder::open(dir).map_err(|e| e.to_string())?;
    let scan = read_journals(&plan).map_err(|e| e.to_string())?;
    Status::of(&plan, &scan).map_err(|e| e.to_string())
}

fn merged_total(dir: &Path) -> Result<MergedTotal, String> {
    let plan = PlanFolder::open(dir).map_err(|e| e.to_string())?;
    let units = plan.read_units().map_err(|e| e.to_string())?;
    let scan = read_journals(&plan).map_err(|e| e.to_string())?;
    match merge(&plan, &units, &scan).map_err(|e| e.to_string())? {
        Merged::Total(total) => Ok(MergedTotal {
            nodes: total.nodes,
            trust: total.trust,
            published: reference::published(&plan.manifest.fen, plan.manifest.depth),
        }),
        Merged::Disagreeing(units) => Err(format!(
            "{} units have results that disagree (`vkperft work merge` lists them)",
            units.len()
        )),
        Merged::Missing(units) => Err(format!("{} units have no result yet", units.len())),
        Merged::StatsDisagreeing(units) => Err(format!(
            "{} units agree on the count but not on the move-type statistics",
            units.len()
        )),
        Merged::Inconsistent(faults) => Err(format!(
            "the plan is not what its root makes it ({} faults; `vkperft work merge` names \
             them)",
            faults.len()
        )),
    }
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
        Some(Ok(status)) => {
            status_lines(ui, status);
            if status.units > 0 && status.done == status.units {
                ui.horizontal(|ui| {
                    if ui
                        .button("Merge")
                        .on_hover_text("The total of every unit, as `vkperft work merge` makes it")
                        .clicked()
                    {
                        watch.merge();
                    }
                    if let Some(merged) = &watch.merged {
                        merged_line(ui, merged);
                    }
                });
            }
        }
    }
}

/// The merged total, its trust and its mark against the published value.
fn merged_line(ui: &mut Ui, merged: &Result<MergedTotal, String>) {
    let total = match merged {
        Ok(total) => total,
        Err(error) => {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {error}"));
            return;
        }
    };
    ui.strong(format!("{} nodes", thousands(total.nodes)));
    ui.label(format!("({})", total.trust.name()));
    match &total.published {
        Some(published) if published.nodes == total.nodes => {
            ui.colored_label(
                egui::Color32::from_rgb(40, 160, 60),
                format!("✔ published ({})", published.name),
            );
        }
        Some(published) => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!(
                    "✘ published {} ({})",
                    thousands(published.nodes),
                    published.name
                ),
            );
        }
        None => {
            ui.weak("no published value");
        }
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
