//! The window's keyboard shortcuts: what each key asks, read from the frame's input, and the
//! Help window that lists them.

use egui::{Context, Key, KeyboardShortcut, Modifiers, Ui};

/// What a shortcut asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    Run,
    Cancel,
    FlipBoard,
    /// Move the divide table's cursor one row up or down.
    CursorUp,
    CursorDown,
    /// Make the move under the cursor and search its subtree.
    Descend,
    /// Back to the previous level of the walk.
    WalkBack,
}

/// The keys and what they do, as the Help window and `docs/window.md` list them.
pub const SHORTCUTS: [(&str, &str); 7] = [
    ("Ctrl+Enter", "Run"),
    (
        "Esc",
        "Cancel the run, or stop your engine while it is asked",
    ),
    ("F", "Flip the board"),
    ("Up / Down", "Move through the divide table"),
    (
        "Enter",
        "Make the divide table's move and search its subtree",
    ),
    ("Backspace", "Walk back one move"),
    ("F1", "This list"),
];

const RUN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Enter);

/// Whether no widget has the keyboard focus; asked before the frame's widgets, since a field
/// that takes Enter gives its focus up in the same frame.
pub fn unfocused(ctx: &Context) -> bool {
    ctx.memory(|memory| memory.focused().is_none())
}

/// The shortcuts pressed this frame, read after the widgets (a Depth being typed is committed
/// by the Enter of Ctrl+Enter before the run starts). Ctrl+Enter and Esc work from anywhere;
/// the single keys only when no widget had the keyboard focus at the frame's start (`free`),
/// so that typing a FEN or an engine command and moving between widgets with Tab keep their
/// keys. `cancellable`: a run or the user's engine is under way, which Esc stops.
pub fn pressed(ctx: &Context, free: bool, cancellable: bool) -> Vec<Shortcut> {
    ctx.input_mut(|input| {
        let mut pressed = Vec::new();
        if input.consume_shortcut(&RUN) {
            pressed.push(Shortcut::Run);
        }
        if cancellable && input.consume_key(Modifiers::NONE, Key::Escape) {
            pressed.push(Shortcut::Cancel);
        }
        if !free {
            return pressed;
        }
        for (key, shortcut) in [
            (Key::F, Shortcut::FlipBoard),
            (Key::ArrowUp, Shortcut::CursorUp),
            (Key::ArrowDown, Shortcut::CursorDown),
            (Key::Enter, Shortcut::Descend),
            (Key::Backspace, Shortcut::WalkBack),
        ] {
            if input.consume_key(Modifiers::NONE, key) {
                pressed.push(shortcut);
            }
        }
        pressed
    })
}

/// Whether F1 was pressed this frame (it toggles the Help window).
pub fn help_pressed(ctx: &Context) -> bool {
    ctx.input_mut(|input| input.consume_key(Modifiers::NONE, Key::F1))
}

/// The Help window's contents.
pub fn help(ui: &mut Ui) {
    egui::Grid::new("shortcuts")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (keys, action) in SHORTCUTS {
                ui.monospace(keys);
                ui.label(action);
                ui.end_row();
            }
        });
    ui.add_space(4.0);
    ui.weak(
        "F, the arrows, Enter and Backspace act while no field has the keyboard focus \
         (click the board or an empty place first; Esc leaves a field).",
    );
}
