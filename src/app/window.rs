//! The native window, and the screenshot mode the smoke test uses: start the default run,
//! wait for its result, capture the window to a PNG and close.

use super::fonts;
use super::settings::Settings;
use super::VkperftApp;
use crate::tt::TtMode;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct WindowOptions {
    /// Capture the window to this PNG once the first run has finished, then close.
    pub screenshot: Option<PathBuf>,
    /// Start in this theme instead of the remembered one.
    pub dark_theme: Option<bool>,
    /// Open at this size instead of the remembered one.
    pub size: Option<[f32; 2]>,
    /// Settings to start with instead of the remembered ones.
    pub start: StartSettings,
}

/// What the command line asks the window to start with instead of what it remembers.
#[derive(Clone, Debug, Default)]
pub struct StartSettings {
    pub fen: Option<String>,
    pub depth: Option<u32>,
    pub tt_mode: Option<TtMode>,
    /// For this session only: the width saved for later sessions stays the remembered one.
    pub verifier_bits: Option<u32>,
}

impl StartSettings {
    /// An app with `settings` changed as asked.
    pub fn app(&self, mut settings: Settings) -> VkperftApp {
        if let Some(fen) = &self.fen {
            settings.fen = fen.clone();
        }
        settings.depth = self.depth.unwrap_or(settings.depth);
        settings.tt_mode = self.tt_mode.unwrap_or(settings.tt_mode);
        let mut app = VkperftApp::new(settings);
        if let Some(bits) = self.verifier_bits {
            app.state_mut().use_verifier_bits_this_session(bits);
        }
        app
    }
}

pub const WINDOW_SIZE: [f32; 2] = [1280.0, 800.0];
/// The smallest window whose panels still show their values (scrolling where they must).
pub const MIN_WINDOW_SIZE: [f32; 2] = [800.0, 560.0];

/// `WIDTHxHEIGHT` in points, at least [`MIN_WINDOW_SIZE`].
pub fn parse_size(text: &str) -> Result<[f32; 2], String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT, e.g. 1000x650"))?;
    let side = |value: &str, least: f32| -> Result<f32, String> {
        let points: u32 = value
            .trim()
            .parse()
            .map_err(|_| format!("`{value}` in `{text}` is not a whole number of points"))?;
        let points = points as f32;
        if points < least {
            return Err(format!(
                "the window must be at least {}x{}",
                MIN_WINDOW_SIZE[0], MIN_WINDOW_SIZE[1]
            ));
        }
        Ok(points)
    };
    Ok([
        side(width, MIN_WINDOW_SIZE[0])?,
        side(height, MIN_WINDOW_SIZE[1])?,
    ])
}

/// Opens the window and returns when it closes.
pub fn run_window(options: WindowOptions) -> Result<(), String> {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("vkperft")
            .with_app_id("vkperft")
            .with_inner_size(options.size.unwrap_or(WINDOW_SIZE))
            .with_min_inner_size(MIN_WINDOW_SIZE),
        // A screenshot run, or one at a size asked for, leaves the user's remembered window
        // alone.
        persist_window: options.screenshot.is_none() && options.size.is_none(),
        ..Default::default()
    };
    let outcome: Arc<Mutex<Option<Result<(), String>>>> = Arc::new(Mutex::new(None));
    let app_outcome = outcome.clone();
    eframe::run_native(
        "vkperft",
        native,
        Box::new(move |cc| {
            fonts::install(&cc.egui_ctx);
            let mut settings = match options.screenshot {
                Some(_) => Settings::default(),
                None => Settings::load(cc.storage),
            };
            if let Some(dark) = options.dark_theme {
                settings.dark_theme = dark;
            }
            let mut app = options.start.app(settings);
            // The history file sits beside eframe's own storage; a screenshot run keeps none.
            if options.screenshot.is_none() {
                if let Some(folder) = eframe::storage_dir("vkperft") {
                    app = app.keep_history_in(&folder);
                }
            }
            Ok(match options.screenshot {
                Some(path) => Box::new(ScreenshotApp::new(app, path, app_outcome)),
                None => Box::new(app),
            })
        }),
    )
    .map_err(|err| format!("could not open the window: {err}"))?;
    let result = outcome.lock().map(|mut slot| slot.take());
    match result {
        Ok(Some(result)) => result,
        _ => Ok(()),
    }
}

/// How long the screenshot mode waits for the first run before capturing anyway.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
/// How long it waits for the captured pixels.
const CAPTURE_TIMEOUT: Duration = Duration::from_secs(30);

enum Capture {
    WaitingForRun { since: Instant },
    Requested { since: Instant },
    Done,
}

struct ScreenshotApp {
    app: VkperftApp,
    path: PathBuf,
    capture: Capture,
    frames: u32,
    /// Written by the screenshot callback, read by the next frame.
    saved: Arc<Mutex<Option<Result<(), String>>>>,
    outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

impl ScreenshotApp {
    fn new(
        app: VkperftApp,
        path: PathBuf,
        outcome: Arc<Mutex<Option<Result<(), String>>>>,
    ) -> ScreenshotApp {
        ScreenshotApp {
            app,
            path,
            capture: Capture::WaitingForRun {
                since: Instant::now(),
            },
            frames: 0,
            saved: Arc::new(Mutex::new(None)),
            outcome,
        }
    }

    fn close(&mut self, ctx: &egui::Context, result: Result<(), String>) {
        if let Ok(mut slot) = self.outcome.lock() {
            *slot = Some(result);
        }
        self.capture = Capture::Done;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

impl eframe::App for ScreenshotApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.app.show(ui);
        self.frames += 1;
        ctx.request_repaint_after(Duration::from_millis(50));
        match self.capture {
            Capture::WaitingForRun { since } => {
                if self.frames == 2 {
                    self.app.run_from_editor();
                }
                let finished = self.frames > 2 && !self.app.state().is_running();
                if finished || since.elapsed() > RUN_TIMEOUT {
                    let path = self.path.clone();
                    let saved = self.saved.clone();
                    let repaint = ctx.clone();
                    ctx.request_screenshot(move |image| {
                        let result = save_png(&image, &path);
                        if let Ok(mut slot) = saved.lock() {
                            *slot = Some(result);
                        }
                        repaint.request_repaint();
                    });
                    self.capture = Capture::Requested {
                        since: Instant::now(),
                    };
                }
            }
            Capture::Requested { since } => {
                let saved = self.saved.lock().ok().and_then(|mut slot| slot.take());
                match saved {
                    Some(result) => self.close(&ctx, result),
                    None if since.elapsed() > CAPTURE_TIMEOUT => self.close(
                        &ctx,
                        Err("the window's pixels never arrived for the screenshot".to_string()),
                    ),
                    None => {}
                }
            }
            Capture::Done => {}
        }
    }
}

fn save_png(image: &egui::ColorImage, path: &std::path::Path) -> Result<(), String> {
    let [width, height] = image.size;
    let pixels: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let buffer = image::RgbaImage::from_raw(width as u32, height as u32, pixels)
        .ok_or_else(|| "the screenshot's pixel count does not match its size".to_string())?;
    buffer
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|err| format!("could not write {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{parse_size, StartSettings};
    use crate::app::Settings;
    use crate::tt::{TtMode, DEFAULT_VERIFIER_BITS};

    #[test]
    fn start_settings_replace_the_remembered_ones_and_the_verifier_width_is_not_saved() {
        let kiwipete_black = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let start = StartSettings {
            fen: Some(kiwipete_black.to_string()),
            depth: Some(5),
            tt_mode: Some(TtMode::Certify),
            verifier_bits: Some(8),
        };
        let app = start.app(Settings::default());
        let state = app.state();
        assert_eq!(state.editor.fen_text(), kiwipete_black);
        assert_eq!(
            (state.settings.depth, state.settings.tt_mode),
            (5, TtMode::Certify)
        );
        assert_eq!(state.settings.verifier_bits, 8);
        let saved = state.settings_to_save();
        assert_eq!(saved.verifier_bits, DEFAULT_VERIFIER_BITS);
        assert_eq!((saved.depth, saved.fen.as_str()), (5, kiwipete_black));
    }

    #[test]
    fn no_start_settings_keep_the_remembered_ones() {
        let remembered = Settings {
            depth: 3,
            verifier_bits: 16,
            ..Settings::default()
        };
        let app = StartSettings::default().app(remembered.clone());
        assert_eq!(app.state().settings_to_save(), remembered);
    }

    #[test]
    fn sizes_parse_and_too_small_ones_are_refused() {
        assert_eq!(parse_size("1000x650"), Ok([1000.0, 650.0]));
        assert_eq!(
            parse_size("640x480"),
            Err("the window must be at least 800x560".to_string())
        );
        assert_eq!(
            parse_size("wide"),
            Err("`wide` is not WIDTHxHEIGHT, e.g. 1000x650".to_string())
        );
        assert!(parse_size("1000xabc").is_err_and(|error| error.contains("`abc`")));
    }
}
