//! The progress bar of `suite`: positions done, failures so far and the time left; shown on a
//! terminal only.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub struct SuiteProgress {
    bar: Option<ProgressBar>,
}

impl SuiteProgress {
    pub fn new(total: usize) -> SuiteProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} {msg} (eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar
        });
        SuiteProgress { bar }
    }

    /// `done` positions, and what to say beside them.
    pub fn set(&mut self, done: usize, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(message);
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
