//! The board: squares, coordinates and pieces, and the edits made on it with the mouse.
//! Click places the palette's piece (or removes the same piece), drag moves a piece (off the
//! board removes it), right-click removes, and a palette piece dropped on a square lands there.

use super::editor::Editor;
use super::pieces;
use crate::chess::{Piece, Square};
use egui::{Align2, Color32, FontId, Id, Pos2, Rect, Sense, Stroke, Ui, Vec2};

pub enum BoardEdit {
    Place(Square, Piece),
    Move(Square, Square),
    Remove(Square),
}

const LIGHT: Color32 = Color32::from_rgb(238, 216, 178);
const DARK: Color32 = Color32::from_rgb(176, 132, 96);
const HIGHLIGHT: Color32 = Color32::from_rgba_premultiplied(70, 120, 40, 90);

struct Geometry {
    rect: Rect,
    flipped: bool,
}

impl Geometry {
    fn square_size(&self) -> f32 {
        self.rect.width() / 8.0
    }

    fn square_rect(&self, square: Square) -> Rect {
        let (column, row) = if self.flipped {
            (7 - square.file(), square.rank())
        } else {
            (square.file(), 7 - square.rank())
        };
        let size = self.square_size();
        Rect::from_min_size(
            self.rect.min + Vec2::new(f32::from(column) * size, f32::from(row) * size),
            Vec2::splat(size),
        )
    }

    fn square_at(&self, pos: Pos2) -> Option<Square> {
        if !self.rect.contains(pos) {
            return None;
        }
        let size = self.square_size();
        let column = (((pos.x - self.rect.min.x) / size) as u8).min(7);
        let row = (((pos.y - self.rect.min.y) / size) as u8).min(7);
        let (file, rank) = if self.flipped {
            (7 - column, row)
        } else {
            (column, 7 - row)
        };
        Some(Square::from_coords(file, rank))
    }
}

/// Draws the board `side` points wide and returns the edit the user made, if any.
pub fn show(
    ui: &mut Ui,
    editor: &Editor,
    flipped: bool,
    selected: Option<Piece>,
    side: f32,
) -> Option<BoardEdit> {
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click_and_drag());
    let geometry = Geometry { rect, flipped };
    let drag_origin_id = Id::unique("board-drag-origin");
    let painter = ui.painter_at(rect.expand(2.0));
    let mut edit = None;

    if response.drag_started() {
        let origin = response
            .interact_pointer_pos()
            .and_then(|pos| geometry.square_at(pos))
            .filter(|&square| editor.piece_at(square).is_some());
        ui.data_mut(|data| data.insert_temp(drag_origin_id, origin));
    }
    let dragged_from: Option<Square> = ui
        .data(|data| data.get_temp(drag_origin_id))
        .flatten()
        .filter(|_| response.dragged() || response.drag_stopped());
    let pointer = ui.ctx().pointer_latest_pos();

    for square in Square::all() {
        let square_rect = geometry.square_rect(square);
        let color = if (square.file() + square.rank()) % 2 == 0 {
            DARK
        } else {
            LIGHT
        };
        painter.rect_filled(square_rect, 0.0, color);
    }
    if let Some(ep) = editor.setup().ep_square {
        painter.rect_filled(geometry.square_rect(ep), 0.0, HIGHLIGHT);
    }
    let hover_square = pointer
        .filter(|_| response.contains_pointer())
        .and_then(|pos| geometry.square_at(pos));
    if let Some(square) = hover_square {
        painter.rect_stroke(
            geometry.square_rect(square).shrink(1.5),
            0.0,
            Stroke::new(3.0, Color32::from_rgb(60, 140, 220)),
            egui::StrokeKind::Inside,
        );
    }
    coordinates(&painter, &geometry);
    let size = geometry.square_size();
    for square in Square::all() {
        if Some(square) == dragged_from {
            continue;
        }
        if let Some(piece) = editor.piece_at(square) {
            pieces::paint(&painter, geometry.square_rect(square).center(), size, piece);
        }
    }
    painter.rect_stroke(
        rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(60)),
        egui::StrokeKind::Outside,
    );

    if let (Some(origin), Some(pos)) = (dragged_from, pointer) {
        if let Some(piece) = editor.piece_at(origin) {
            let layer = egui::LayerId::new(egui::Order::Tooltip, drag_origin_id);
            pieces::paint(&ui.ctx().layer_painter(layer), pos, size, piece);
        }
        if response.drag_stopped() {
            edit = match pointer.and_then(|pos| geometry.square_at(pos)) {
                Some(target) if target != origin => Some(BoardEdit::Move(origin, target)),
                Some(_) => None,
                None => Some(BoardEdit::Remove(origin)),
            };
            ui.data_mut(|data| data.remove::<Option<Square>>(drag_origin_id));
        }
    }

    let clicked_square = response
        .interact_pointer_pos()
        .and_then(|pos| geometry.square_at(pos));
    if response.clicked() {
        if let (Some(square), Some(piece)) = (clicked_square, selected) {
            edit = Some(if editor.piece_at(square) == Some(piece) {
                BoardEdit::Remove(square)
            } else {
                BoardEdit::Place(square, piece)
            });
        }
    }
    if response.secondary_clicked() {
        if let Some(square) = clicked_square {
            edit = Some(BoardEdit::Remove(square));
        }
    }
    if let Some(piece) = response.dnd_release_payload::<Piece>() {
        if let Some(square) = pointer.and_then(|pos| geometry.square_at(pos)) {
            edit = Some(BoardEdit::Place(square, *piece));
        }
    }
    edit
}

fn coordinates(painter: &egui::Painter, geometry: &Geometry) {
    let font = FontId::proportional(geometry.square_size() * 0.2);
    for index in 0..8u8 {
        let file_square = Square::from_coords(index, if geometry.flipped { 7 } else { 0 });
        let file_rect = geometry.square_rect(file_square);
        painter.text(
            file_rect.right_bottom() + Vec2::new(-3.0, -1.0),
            Align2::RIGHT_BOTTOM,
            char::from(b'a' + index),
            font.clone(),
            label_color(file_square),
        );
        let rank_square = Square::from_coords(if geometry.flipped { 7 } else { 0 }, index);
        let rank_rect = geometry.square_rect(rank_square);
        painter.text(
            rank_rect.left_top() + Vec2::new(3.0, 1.0),
            Align2::LEFT_TOP,
            char::from(b'1' + index),
            font.clone(),
            label_color(rank_square),
        );
    }
}

/// Coordinates take the other square colour so they read on both.
fn label_color(square: Square) -> Color32 {
    if (square.file() + square.rank()) % 2 == 0 {
        LIGHT
    } else {
        DARK
    }
}
