//! The editor's Chess960 controls: the notation toggle, the start-position picker, and the
//! castling rights held by single rooks.

use super::editor::Editor;
use super::format;
use crate::chess::{Color, Square};
use crate::reference::chess960::{self, StartPosition};
use egui::Ui;
use std::hash::{BuildHasher, Hasher};

/// The number of the standard start among the 960.
pub const STANDARD_START: u16 = 518;

const START_POSITIONS: u16 = 960;

/// The toggle, then the picker; returns true when the user changed the position.
/// `start_index` is the picker's number, kept between frames.
pub fn show(ui: &mut Ui, editor: &mut Editor, start_index: &mut u16) -> bool {
    let mut changed = false;
    let mut on = editor.chess960();
    let needed = editor.castling_needs_chess960();
    let response = ui
        .add_enabled(!needed, egui::Checkbox::new(&mut on, "Chess960"))
        .on_hover_text(
            "Write castling as Chess960 engines do: rights by the rook's file \
             (Shredder-FEN) and castles as the king taking its rook (e1h1)",
        )
        .on_disabled_hover_text(
            "A castling right here is not a standard castle (a king off the e-file or a rook \
             out of its corner); take it away to return to standard notation",
        );
    if response.changed() {
        editor.set_chess960(on);
        changed = true;
    }
    ui.separator();
    let label = ui.label("960 start");
    let start = chess960::start_position(*start_index);
    ui.add(egui::DragValue::new(start_index).range(0..=START_POSITIONS - 1))
        .labelled_by(label.id)
        .on_hover_text(start.map_or_else(String::new, describe));
    if ui
        .button("Load")
        .on_hover_text("Set up this Chess960 start position")
        .clicked()
    {
        changed |= load(editor, *start_index);
    }
    if ui
        .button("Random")
        .on_hover_text("Set up a Chess960 start position drawn at random")
        .clicked()
    {
        *start_index = random_index();
        changed |= load(editor, *start_index);
    }
    changed
}

/// One checkbox per rook that could castle, named by its file as in Shredder-FEN; returns true
/// when the user changed a right.
pub fn castling_per_rook(ui: &mut Ui, editor: &mut Editor) -> bool {
    let mut changed = false;
    ui.label("Castling");
    let candidates = Color::ALL.map(|color| (color, editor.castling_candidates(color)));
    if candidates.iter().all(|(_, rooks)| rooks.is_empty()) {
        ui.weak("no rook stands with its king on a back rank");
    }
    for (color, rooks) in candidates {
        for rook in rooks {
            let mut granted = editor.setup().castling_rooks.contains(rook);
            let mut hover = format!("{color} rook on {rook}");
            if let Some(rival) = editor.castling_rival(rook) {
                hover.push_str(&format!(
                    "; castling with it takes the right from the rook on {rival}"
                ));
            }
            let response = ui
                .checkbox(&mut granted, shredder_letter(color, rook))
                .on_hover_text(hover);
            if response.changed() {
                editor.set_castling_right(rook, granted);
                changed = true;
            }
        }
    }
    changed
}

/// The letter of a rook's castling right in Shredder-FEN: its file, upper case for white.
fn shredder_letter(color: Color, rook: Square) -> String {
    let file = char::from(b'a' + rook.file());
    match color {
        Color::White => file.to_ascii_uppercase().to_string(),
        Color::Black => file.to_string(),
    }
}

fn load(editor: &mut Editor, index: u16) -> bool {
    let Some(start) = chess960::start_position(index) else {
        return false;
    };
    *editor = Editor::from_fen(start.shredder_fen);
    true
}

/// A start position's FEN and its published perft.
fn describe(start: &StartPosition) -> String {
    let counts: Vec<String> = start
        .perft
        .iter()
        .map(|&nodes| format::thousands(u128::from(nodes)))
        .collect();
    format!(
        "{}\nperft 1 to {}: {}",
        start.shredder_fen,
        counts.len(),
        counts.join(", ")
    )
}

/// A number from 0 to 959; the standard library's randomly keyed hasher is random enough to
/// pick a start position.
fn random_index() -> u16 {
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    u16::try_from(random % u64::from(START_POSITIONS)).unwrap_or(STANDARD_START)
}
