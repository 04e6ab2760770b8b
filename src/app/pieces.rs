//! Piece graphics: the chess symbols of the shipped DejaVu subset ([`super::fonts`]). A white
//! piece is the solid glyph filled white under the outline glyph; a black piece is the solid
//! glyph alone.

use super::fonts;
use crate::chess::{Color, Piece, Role};
use egui::{Align2, Color32, FontId, Painter, Pos2};

fn solid_glyph(role: Role) -> char {
    match role {
        Role::King => '\u{265A}',
        Role::Queen => '\u{265B}',
        Role::Rook => '\u{265C}',
        Role::Bishop => '\u{265D}',
        Role::Knight => '\u{265E}',
        Role::Pawn => '\u{265F}',
    }
}

fn outline_glyph(role: Role) -> char {
    match role {
        Role::King => '\u{2654}',
        Role::Queen => '\u{2655}',
        Role::Rook => '\u{2656}',
        Role::Bishop => '\u{2657}',
        Role::Knight => '\u{2658}',
        Role::Pawn => '\u{2659}',
    }
}

/// Paints `piece` centred on `center`, `size` points tall.
pub fn paint(painter: &Painter, center: Pos2, size: f32, piece: Piece) {
    if !fonts::ready(painter.ctx()) {
        // The first frame of a fresh context: letters until the font is in.
        painter.text(
            center,
            Align2::CENTER_CENTER,
            piece.char(),
            FontId::proportional(size * 0.6),
            match piece.color {
                Color::White => Color32::WHITE,
                Color::Black => Color32::BLACK,
            },
        );
        return;
    }
    let font = FontId::new(size * 0.86, fonts::pieces_family());
    let solid = solid_glyph(piece.role).to_string();
    match piece.color {
        Color::White => {
            painter.text(
                center,
                Align2::CENTER_CENTER,
                &solid,
                font.clone(),
                Color32::from_rgb(250, 250, 245),
            );
            painter.text(
                center,
                Align2::CENTER_CENTER,
                outline_glyph(piece.role),
                font,
                Color32::from_rgb(20, 20, 20),
            );
        }
        Color::Black => {
            painter.text(
                center,
                Align2::CENTER_CENTER,
                &solid,
                font,
                Color32::from_rgb(20, 20, 20),
            );
        }
    }
}
