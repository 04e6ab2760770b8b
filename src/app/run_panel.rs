//! The run panel: depth, backend and threads, TT mode and size, the advanced knobs, and
//! Run / Cancel. It only edits settings and asks; the app sends the job to the engine.

use super::backend::available_backends;
use super::settings::{EngineKind, Settings, ENGINE_DEADLINE_RANGE_S};
use crate::backend::MAX_DEPTH;
use crate::chess::parse_seed;
use crate::chess::zobrist::DEFAULT_SEED;
use crate::gpu::DeviceInfo;
use crate::tt::{TtMode, DEFAULT_VERIFIER_BITS, MAX_VERIFIER_BITS, MIN_VERIFIER_BITS};
use egui::{RichText, Ui};

pub enum RunAction {
    Run,
    Cancel,
    /// Ask the user's engine for the shown level's divide.
    Compare,
    /// Walk to the first position where the user's engine goes wrong.
    FindTheBug,
}

/// The seed field's text, kept apart from the parsed seed so that half-typed text survives.
pub struct SeedField {
    pub text: String,
    pub error: Option<String>,
}

impl SeedField {
    pub fn new(seed: u64) -> SeedField {
        SeedField {
            text: format!("{seed:#x}"),
            error: None,
        }
    }
}

/// What the panel's buttons depend on.
pub struct RunStatus<'a> {
    /// Why Run is unavailable (an illegal position, a bad seed), if it is.
    pub blocker: Option<&'a str>,
    /// A run is in flight.
    pub running: bool,
    /// The user's engine is being asked (Cancel stops either).
    pub engine_busy: bool,
    /// A level with vkperft's divide is shown, which Compare can put beside the engine's.
    pub comparable: bool,
    /// A suite against vkperft runs on the window's engine: Run waits until it ends.
    pub suite_running: bool,
}

/// Why Run waits while a suite against vkperft runs.
const SUITE_RUNNING: &str = "A suite runs against vkperft on this engine; Run waits until it ends";

/// `devices`: the Vulkan devices, once the engine has listed them.
pub fn show(
    ui: &mut Ui,
    devices: Option<&[DeviceInfo]>,
    settings: &mut Settings,
    seed: &mut SeedField,
    status: RunStatus<'_>,
) -> Option<RunAction> {
    let RunStatus {
        blocker,
        running,
        engine_busy,
        comparable,
        suite_running,
    } = status;
    let mut action = None;
    let running = running || engine_busy;
    // The buttons stay at the top; the settings under them scroll in a short panel.
    ui.horizontal(|ui| {
        ui.heading("Run");
        ui.add_space(8.0);
        let refusal = blocker.or(suite_running.then_some(SUITE_RUNNING));
        let run = ui.add_enabled(
            refusal.is_none() && !running,
            egui::Button::new(RichText::new("▶ Run").strong()).min_size([90.0, 28.0].into()),
        );
        let run = match refusal {
            Some(reason) => run.on_disabled_hover_text(reason),
            None => run.on_hover_text(format!("Run perft {} (Ctrl+Enter)", settings.depth)),
        };
        if run.clicked() {
            action = Some(RunAction::Run);
        }
        if ui
            .add_enabled(
                running,
                egui::Button::new("■ Cancel").min_size([90.0, 28.0].into()),
            )
            .on_hover_text("Stop the run, or kill your engine while it is asked (Esc)")
            .clicked()
        {
            action = Some(RunAction::Cancel);
        }
    });
    ui.horizontal(|ui| {
        let engine = settings.engine_command().is_some();
        let depth = settings.depth;
        if ui
            .add_enabled(
                engine && comparable && !running,
                egui::Button::new("Compare"),
            )
            .on_hover_text(format!(
                "Put your engine's divide at depth {depth} of the shown position beside \
                 vkperft's (the Depth field's depth)"
            ))
            .clicked()
        {
            action = Some(RunAction::Compare);
        }
        if ui
            .add_enabled(
                engine && blocker.is_none() && !running,
                egui::Button::new("Find the bug"),
            )
            .on_hover_text(format!(
                "Compare your engine with vkperft from the board's position at depth {depth}, \
                 and descend to the first position where its move list is wrong"
            ))
            .clicked()
        {
            action = Some(RunAction::FindTheBug);
        }
    });
    if let Some(reason) = blocker.filter(|_| !running) {
        ui.label(RichText::new(reason).color(ui.visuals().error_fg_color));
    } else if suite_running && !running {
        ui.weak(SUITE_RUNNING);
    }
    egui::ScrollArea::vertical()
        .id_salt("run-scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            settings_grid(ui, devices, settings, running);
            // The advanced knobs apply to the next run: they stay usable during one.
            egui::CollapsingHeader::new("Advanced")
                .id_salt("run-advanced")
                .show(ui, |ui| advanced(ui, settings, seed));
        });
    action
}

/// Depth, backend, table, statistics and the user's engine; locked while a run or the
/// engine is under way.
fn settings_grid(
    ui: &mut Ui,
    devices: Option<&[DeviceInfo]>,
    settings: &mut Settings,
    running: bool,
) {
    ui.add_enabled_ui(!running, |ui| {
        egui::Grid::new("run-settings")
            .num_columns(2)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                let label = ui.label("Depth");
                ui.add(egui::DragValue::new(&mut settings.depth).range(0..=MAX_DEPTH))
                    .labelled_by(label.id);
                ui.end_row();

                let label = ui.label("Backend");
                ui.horizontal(|ui| {
                    // A long device name is cut in the box; the box's hover shows it whole.
                    let selected = settings.backend.label(devices);
                    egui::ComboBox::from_id_salt("backend")
                        .width(110.0)
                        .truncate()
                        .selected_text(selected.clone())
                        .show_ui(ui, |ui| {
                            for backend in available_backends(devices.unwrap_or_default()) {
                                ui.selectable_value(
                                    &mut settings.backend,
                                    backend,
                                    backend.label(devices),
                                );
                            }
                            if devices.is_none() {
                                ui.weak("listing Vulkan devices…");
                            }
                        })
                        .response
                        .labelled_by(label.id)
                        .on_hover_text(selected);
                    if settings.backend.uses_threads() {
                        let label = ui.label("threads");
                        ui.add(egui::DragValue::new(&mut settings.threads).range(1..=1024))
                            .labelled_by(label.id);
                    }
                });
                ui.end_row();

                ui.label("TT mode");
                ui.horizontal(|ui| {
                    for mode in TtMode::ALL {
                        ui.selectable_value(&mut settings.tt_mode, mode, mode.name())
                            .on_hover_text(mode_description(mode, settings.verifier_bits));
                    }
                });
                ui.end_row();

                // On a row of their own, so that a narrow panel does not cut them.
                let badges = tt_badges(settings);
                if !badges.is_empty() {
                    ui.label("");
                    ui.horizontal_wrapped(|ui| {
                        for (text, hover) in badges {
                            ui.label(
                                RichText::new(text).color(egui::Color32::from_rgb(210, 120, 20)),
                            )
                            .on_hover_text(hover);
                        }
                    });
                    ui.end_row();
                }

                let label = ui.label("TT size");
                ui.add_enabled(
                    settings.tt_mode != TtMode::Off,
                    egui::DragValue::new(&mut settings.tt_mb)
                        .range(1..=1 << 20)
                        .suffix(" MiB"),
                )
                .labelled_by(label.id);
                ui.end_row();

                ui.label("Statistics");
                ui.checkbox(&mut settings.move_stats, "Move types")
                    .on_hover_text(
                        "Count the last ply's captures, en passant, castles, promotions, checks, \
                     discovered and double checks, checkmates and stalemates, at every depth \
                     up to the run's (on the CPU about 3x a plain perft's time; on Vulkan one \
                     search more per statistic)",
                    );
                ui.end_row();

                let label = ui.label("Engine");
                ui.horizontal(|ui| {
                    egui::ComboBox::from_id_salt("engine-kind")
                        .width(60.0)
                        .selected_text(settings.engine_kind.label())
                        .show_ui(ui, |ui| {
                            for kind in EngineKind::ALL {
                                ui.selectable_value(&mut settings.engine_kind, kind, kind.label());
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.add(
                        egui::TextEdit::singleline(&mut settings.engine)
                            .hint_text("your engine's command")
                            .desired_width(150.0),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "A UCI engine answering `go perft N`, or a perftree-style script \
                         called as `CMD depth fen moves`. The command runs through the shell \
                         (`sh -c`), so environment prefixes and wrappers work: \
                         `BUG=ep ./engine`, `cd dir && ./engine`",
                    );
                });
                ui.end_row();

                let label = ui.label("Deadline");
                ui.add(
                    egui::DragValue::new(&mut settings.engine_deadline_s)
                        .range(ENGINE_DEADLINE_RANGE_S)
                        .suffix(" s"),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "How long one answer of your engine may take before it is stopped; \
                     Cancel stops it at any time",
                );
                ui.end_row();
            });
    });
}

/// A mode's description with the verifier width the next run will use (Advanced may narrow
/// the fast verifier's 64 bits).
fn mode_description(mode: TtMode, verifier_bits: u32) -> String {
    let description = mode.description();
    if mode == TtMode::Fast {
        description.replace(
            "a 64-bit verifier",
            &format!("{verifier_bits} verifier bits"),
        )
    } else {
        description.to_string()
    }
}

/// Badges under the TT mode, with their hover texts, for settings of the collapsed Advanced
/// section that change what a run may be trusted with: a narrowed verifier (more false hits)
/// and a seed other than the default (another run's counts are not the usual ones to compare
/// with).
fn tt_badges(settings: &Settings) -> Vec<(String, &'static str)> {
    let mut badges = Vec::new();
    let narrowed =
        settings.tt_mode.has_verifier() && settings.verifier_bits < DEFAULT_VERIFIER_BITS;
    if narrowed {
        badges.push((
            format!("⚠ {}-bit verifier", settings.verifier_bits),
            "The fast verifier compares fewer bits than its 64 (Advanced): false hits are far \
             more likely",
        ));
    }
    if settings.tt_mode != TtMode::Off && settings.zobrist_seed != DEFAULT_SEED {
        badges.push((
            format!("seed {:#x}", settings.zobrist_seed),
            "A Zobrist seed other than the default (Advanced)",
        ));
    }
    badges
}

fn advanced(ui: &mut Ui, settings: &mut Settings, seed: &mut SeedField) {
    egui::Grid::new("run-advanced-grid")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Verifier bits");
            ui.add_enabled(
                settings.tt_mode.has_verifier(),
                egui::Slider::new(
                    &mut settings.verifier_bits,
                    MIN_VERIFIER_BITS..=MAX_VERIFIER_BITS,
                ),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Compare only the low bits of the fast verifier: fewer bits make false hits \
                 frequent, to watch fast drift and certify catch them",
            );
            ui.end_row();
            let label = ui.label("Zobrist seed");
            let response = ui
                .add(egui::TextEdit::singleline(&mut seed.text).desired_width(160.0))
                .labelled_by(label.id)
                .on_hover_text("Seed of the 128-bit position keys (decimal or 0x-hex)");
            if response.changed() {
                match parse_seed(&seed.text) {
                    Ok(value) => {
                        settings.zobrist_seed = value;
                        seed.error = None;
                    }
                    Err(error) => seed.error = Some(format!("Zobrist seed {error}")),
                }
            }
            ui.end_row();
        });
}

#[cfg(test)]
mod tests {
    use super::mode_description;
    use crate::tt::TtMode;

    #[test]
    fn the_fast_description_names_the_verifier_width() {
        assert!(mode_description(TtMode::Fast, 8).contains("checked by 8 verifier bits"));
        assert!(mode_description(TtMode::Fast, 64).contains("checked by 64 verifier bits"));
    }
}
