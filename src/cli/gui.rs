//! `vkperft gui` (and `vkperft` alone): the window.

use super::args::{GuiArgs, ThemeArg};
use super::error::{CliError, CliResult};
use super::perft::start_position;
use vkperft::app::window::{run_window, StartSettings, WindowOptions};

pub fn run(args: &GuiArgs) -> CliResult {
    let position = &args.position;
    let asks_position = position.fen.is_some() || !position.moves.is_empty() || position.chess960;
    // The position is checked here, so that a bad FEN is an error, not an editor's red field.
    let fen = asks_position
        .then(|| start_position(position).map(|root| root.to_fen()))
        .transpose()?;
    run_window(WindowOptions {
        screenshot: args.screenshot.clone(),
        size: args.size,
        dark_theme: args.theme.map(|theme| theme == ThemeArg::Dark),
        start: StartSettings {
            fen,
            depth: args.depth,
            tt_mode: args.tt.map(|tt| tt.0),
            verifier_bits: args.verifier_bits,
        },
    })
    .map_err(|err| CliError::runtime(anyhow::anyhow!(err)))
}
