//! `vkperft gui` (and `vkperft` alone): the window.

use super::args::{GuiArgs, ThemeArg};
use super::error::{CliError, CliResult};
use vkperft::app::window::{run_window, WindowOptions};

pub fn run(args: &GuiArgs) -> CliResult {
    run_window(WindowOptions {
        screenshot: args.screenshot.clone(),
        size: args.size,
        dark_theme: args.theme.map(|theme| theme == ThemeArg::Dark),
    })
    .map_err(|err| CliError::runtime(anyhow::anyhow!(err)))
}
