//! The editor around the board: the piece palette, clear / start / flip, side to move,
//! castling rights, the en passant square, the Chess960 controls, the FEN field with its error,
//! and the presets.

use super::board::{self, BoardEdit};
use super::chess960_controls;
use super::editor::Editor;
use super::pieces;
use crate::chess::{CastlingSquares, Color, Piece, Position, Role, Setup, Square};
use crate::reference;
use egui::{Color32, Id, RichText, Sense, Ui, Vec2};

/// A palette piece's side at most and at least.
const PALETTE_MAX: f32 = 34.0;
const PALETTE_MIN: f32 = 22.0;
/// The width the palette's hint needs beside the pieces.
const HINT_WIDTH: f32 = 190.0;

/// What the editor's controls remember between frames.
pub struct EditorControls {
    /// The palette piece a click on the board places.
    pub selected: Option<Piece>,
    pub flipped: bool,
    /// The Chess960 start position the picker shows.
    pub start_index: u16,
}

impl Default for EditorControls {
    fn default() -> Self {
        EditorControls {
            selected: None,
            flipped: false,
            start_index: chess960_controls::STANDARD_START,
        }
    }
}

/// Draws the editor; returns true when the user changed the position.
/// `marks` are moves to draw as arrows: (from, to, missing) for a hunt's finding.
pub fn show(
    ui: &mut Ui,
    editor: &mut Editor,
    controls: &mut EditorControls,
    marks: &[(Square, Square, bool)],
    side: f32,
) -> bool {
    let mut changed = false;
    let (top, bottom) = if controls.flipped {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    palette(ui, top, controls);
    let view = board::BoardView {
        flipped: controls.flipped,
        selected: controls.selected,
        marks,
        side,
    };
    if let Some(edit) = board::show(ui, editor, &view) {
        editor.edit(|setup| apply(setup, edit));
        changed = true;
    }
    palette(ui, bottom, controls);
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        if ui.button("Clear").clicked() {
            // An empty board keeps the castling notation: Chess960 setups often start here.
            editor.edit(|setup| {
                *setup = Setup {
                    castling_notation: setup.castling_notation,
                    ..Setup::empty()
                }
            });
            changed = true;
        }
        if ui.button("Start position").clicked() {
            editor.set_position(&Position::startpos());
            changed = true;
        }
        ui.toggle_value(&mut controls.flipped, "Flip board");
        ui.separator();
        changed |= presets(ui, editor);
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("To move");
        for color in Color::ALL {
            let name = if color == Color::White {
                "White"
            } else {
                "Black"
            };
            if ui
                .selectable_label(editor.setup().turn == color, name)
                .clicked()
                && editor.setup().turn != color
            {
                editor.edit(|setup| setup.turn = color);
                changed = true;
            }
        }
        ui.separator();
        changed |= en_passant(ui, editor);
    });
    ui.horizontal(|ui| changed |= chess960_controls::show(ui, editor, &mut controls.start_index));
    ui.horizontal(|ui| {
        changed |= if editor.chess960() {
            chess960_controls::castling_per_rook(ui, editor)
        } else {
            castling(ui, editor)
        }
    });
    changed |= fen_field(ui, editor);
    changed
}

fn apply(setup: &mut Setup, edit: BoardEdit) {
    match edit {
        BoardEdit::Place(square, piece) => setup.board[square.index()] = Some(piece),
        BoardEdit::Remove(square) => setup.board[square.index()] = None,
        BoardEdit::Move(from, to) => {
            setup.board[to.index()] = setup.board[from.index()].take();
        }
    }
}

fn piece_name(piece: Piece) -> String {
    let role = match piece.role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    };
    format!("{} {role}", piece.color)
}

/// One colour's six pieces: click selects for click-to-place, drag drops on a square.
fn palette(ui: &mut Ui, color: Color, controls: &mut EditorControls) {
    // Wrapped rows let the editor panel be narrower than its widest row.
    ui.horizontal_wrapped(|ui| {
        // The six pieces shrink with a narrow board rather than wrap.
        let spacing = ui.spacing().item_spacing.x;
        let size = ((ui.available_width() - 5.0 * spacing) / 6.0).clamp(PALETTE_MIN, PALETTE_MAX);
        let hint_fits = ui.available_width() - 6.0 * (size + spacing) >= HINT_WIDTH;
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let piece = Piece::new(color, role);
            let selected = controls.selected == Some(piece);
            let (rect, response) =
                ui.allocate_exact_size(Vec2::splat(size), Sense::click_and_drag());
            let name = piece_name(piece);
            response.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, selected, &name)
            });
            let background = if selected {
                ui.visuals().selection.bg_fill
            } else if response.hovered() {
                ui.visuals().widgets.hovered.bg_fill
            } else {
                Color32::from_rgb(150, 150, 150)
            };
            ui.painter().rect_filled(rect, 4.0, background);
            pieces::paint(ui.painter(), rect.center(), size, piece);
            if response.clicked() {
                controls.selected = if selected { None } else { Some(piece) };
            }
            if response.dragged() {
                response.dnd_set_drag_payload(piece);
                if let Some(pos) = ui.ctx().pointer_latest_pos() {
                    let layer =
                        egui::LayerId::new(egui::Order::Tooltip, Id::unique("palette-drag"));
                    pieces::paint(&ui.ctx().layer_painter(layer), pos, 48.0, piece);
                }
            }
            response.on_hover_text(format!(
                "{name}: click, then click squares to place it; or drag it onto a square"
            ));
        }
        // The hint goes where it fits on the row, not under it.
        if hint_fits {
            ui.weak("right-click a square to empty it");
        }
    });
}

fn castling(ui: &mut Ui, editor: &mut Editor) -> bool {
    let mut changed = false;
    ui.label("Castling");
    for (color, king_side, letter) in [
        (Color::White, true, "K"),
        (Color::White, false, "Q"),
        (Color::Black, true, "k"),
        (Color::Black, false, "q"),
    ] {
        let rook = CastlingSquares::standard(color, king_side).rook_from;
        let available = editor.castling_available(color, king_side);
        let mut granted = editor.setup().castling_rooks.contains(rook);
        let response = ui
            .add_enabled(available, egui::Checkbox::new(&mut granted, letter))
            .on_disabled_hover_text("The king and rook are not on their squares");
        if response.changed() {
            editor.edit(|setup| {
                setup.castling_rooks = if granted {
                    setup.castling_rooks.with(rook)
                } else {
                    setup.castling_rooks.without(rook)
                };
            });
            changed = true;
        }
    }
    changed
}

fn en_passant(ui: &mut Ui, editor: &mut Editor) -> bool {
    let mut changed = false;
    let current = editor.setup().ep_square;
    let candidates = editor.ep_candidates();
    let text = current.map_or_else(|| "–".to_string(), |sq| sq.to_string());
    let label = ui.label("En passant");
    ui.add_enabled_ui(!candidates.is_empty() || current.is_some(), |ui| {
        egui::ComboBox::from_id_salt("ep-square")
            .selected_text(text)
            .width(48.0)
            .show_ui(ui, |ui| {
                let mut choice: Option<Square> = current;
                ui.selectable_value(&mut choice, None, "–");
                for square in candidates {
                    ui.selectable_value(&mut choice, Some(square), square.to_string());
                }
                if choice != current {
                    editor.edit(|setup| setup.ep_square = choice);
                    changed = true;
                }
            })
            .response
            .labelled_by(label.id);
    })
    .response
    .on_disabled_hover_text("No pawn of the side that just moved could have double-pushed");
    changed
}

fn fen_field(ui: &mut Ui, editor: &mut Editor) -> bool {
    let mut changed = false;
    let label = ui.label("FEN");
    // The FEN wraps in a narrow panel instead of hiding its castling and move fields; Enter
    // does not add a line.
    let response = ui.add(
        egui::TextEdit::multiline(editor.fen_text_mut())
            .font(egui::FontId::monospace(12.0))
            .desired_rows(1)
            .return_key(None)
            .desired_width(ui.available_width()),
    );
    if response.labelled_by(label.id).changed() {
        editor.fen_edited();
        changed = true;
    }
    match editor.error() {
        Some(error) => {
            ui.label(RichText::new(format!("⚠ {error}")).color(ui.visuals().error_fg_color));
        }
        None => {
            ui.weak("Legal position");
        }
    }
    changed
}

fn presets(ui: &mut Ui, editor: &mut Editor) -> bool {
    let mut changed = false;
    let label = ui.label("Presets");
    egui::ComboBox::from_id_salt("presets")
        .selected_text("reference positions")
        .width(150.0)
        .show_ui(ui, |ui| {
            for (name, fen) in reference::positions() {
                if ui
                    .selectable_label(false, name)
                    .on_hover_text(fen)
                    .clicked()
                {
                    *editor = Editor::from_fen(fen);
                    changed = true;
                }
            }
        })
        .response
        .labelled_by(label.id);
    changed
}
