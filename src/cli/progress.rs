//! The progress bar on stderr: shown only on a terminal, and only once a run has taken a second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;
use vkperft::app::format;
use vkperft::engine::{Progress, ProgressPoint, TimeLeft};

const SHOW_AFTER: Duration = Duration::from_secs(1);

pub struct ProgressDisplay {
    bar: Option<ProgressBar>,
    enabled: bool,
    time_left: TimeLeft,
}

impl ProgressDisplay {
    pub fn new(wanted: bool) -> ProgressDisplay {
        ProgressDisplay {
            bar: None,
            enabled: wanted && std::io::stderr().is_terminal(),
            time_left: TimeLeft::default(),
        }
    }

    pub fn update(&mut self, progress: &Progress) {
        self.time_left.record(ProgressPoint::of(progress));
        if !self.enabled || progress.elapsed < SHOW_AFTER {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(
                Some(progress.tasks_total as u64),
                ProgressDrawTarget::stderr(),
            );
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {percent:>3}% {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar
        });
        bar.set_length(progress.tasks_total as u64);
        bar.set_position(progress.tasks_done as u64);
        let left = self
            .time_left
            .estimate()
            .map_or("estimating".to_string(), |left| {
                format!("about {} left", format::duration(left))
            });
        bar.set_message(format!(
            "{} nodes, {:.1} Mnps ({left})",
            vkperft::count::thousands(progress.nodes),
            progress.nps / 1e6
        ));
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
