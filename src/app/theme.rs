//! Light and dark themes.

use egui::{Context, Theme};

pub fn apply(ctx: &Context, dark: bool) {
    let theme = if dark { Theme::Dark } else { Theme::Light };
    if ctx.theme() != theme {
        ctx.set_theme(theme);
    }
}

/// The top bar's toggle; returns true when the theme changed.
pub fn toggle(ui: &mut egui::Ui, dark: &mut bool) -> bool {
    let label = if *dark { "☀ Light" } else { "☾ Dark" };
    let clicked = ui
        .button(label)
        .on_hover_text("Switch between light and dark themes")
        .clicked();
    if clicked {
        *dark = !*dark;
    }
    clicked
}
