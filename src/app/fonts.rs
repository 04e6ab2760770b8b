//! The shipped font: a subset of DejaVu Sans (`assets/dejavu-symbols.ttf`, licence beside it)
//! with the chess pieces and the symbols the panels show, so that the window looks the same
//! whatever fonts the system has.

use egui::epaint::text::{FontInsert, InsertFontFamily};
use egui::{FontData, FontFamily, FontPriority};

const FONT_BYTES: &[u8] = include_bytes!("../../assets/dejavu-symbols.ttf");
const FONT_NAME: &str = "vkperft-dejavu-symbols";

/// The family the board draws its pieces with.
pub fn pieces_family() -> FontFamily {
    FontFamily::Name(FONT_NAME.into())
}

/// Registers the font for the pieces and as the last fallback of the text families; before
/// the first frame it takes effect at once.
pub fn install(ctx: &egui::Context) {
    let family = |family, priority| InsertFontFamily { family, priority };
    ctx.add_font(FontInsert::new(
        FONT_NAME,
        FontData::from_static(FONT_BYTES),
        vec![
            family(pieces_family(), FontPriority::Highest),
            family(FontFamily::Proportional, FontPriority::Lowest),
            family(FontFamily::Monospace, FontPriority::Lowest),
        ],
    ));
}

/// Whether the font is in use yet (it is after [`install`] and one frame at most).
pub fn ready(ctx: &egui::Context) -> bool {
    ctx.fonts(|fonts| fonts.families().contains(&pieces_family()))
}
