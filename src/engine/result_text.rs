//! A result as people read it; the CLI prints and the window shows and exports these lines.

use super::event::PerftResult;
use crate::chess::{MoveStats, STAT_COUNT};
use crate::count::thousands;
use crate::tt::TtMode;

/// Move-type statistics, one per line, with the fast table's beside them when given.
pub fn move_stats_text(stats: &MoveStats, fast: Option<&MoveStats>) -> String {
    let mut text = String::from(
        "Move-type statistics of the last ply (checks include checkmates; discovered and double \
         checks too):\n",
    );
    for (i, (heading, value)) in STAT_HEADINGS.iter().zip(stats.values()).enumerate() {
        text += &format!("  {heading:<11} {:>20}", thousands(value));
        if let Some(fast) = fast {
            text += &format!("   fast table: {}", thousands(fast.values()[i]));
        }
        text += "\n";
    }
    text
}

/// The statistics' headings, in the order of [`crate::chess::STAT_NAMES`], as tables show them.
pub const STAT_HEADINGS: [&str; STAT_COUNT] = [
    "Captures",
    "E.p.",
    "Castles",
    "Promotions",
    "Checks",
    "Discovered",
    "Double",
    "Checkmates",
    "Stalemates",
];

impl PerftResult {
    /// What ran the job: `cpu (16 thread(s))`, `vulkan (NVIDIA H200)`.
    pub fn ran_on(&self) -> String {
        format!("{} ({})", self.device.kind(), self.device.detail())
    }

    /// One `move: nodes` line per root move (Stockfish's `go perft` format), a blank line and
    /// the total.
    pub fn divide_text(&self) -> String {
        let mut text = String::new();
        for (m, counts) in &self.divide {
            text += &format!("{m}: {}\n", counts.nodes);
        }
        text + &format!("\nNodes searched: {}\n", self.counts.nodes)
    }

    /// Time and node rate.
    pub fn timing_text(&self) -> String {
        let rate = if self.nps().is_finite() {
            self.nps().round() as u128
        } else {
            0
        };
        format!(
            "Time: {:.3} s\nNodes/second: {}\n",
            self.elapsed.as_secs_f64(),
            thousands(rate)
        )
    }

    /// The move-type statistics, one per line, with the fast table's beside them in `certify`
    /// (nothing without `--stats`).
    pub fn stats_text(&self) -> String {
        if !self.move_stats {
            return String::new();
        }
        let certify = self.tt_mode == TtMode::Certify;
        move_stats_text(
            &self.counts.stats,
            certify.then_some(&self.counts.fast_stats),
        )
    }

    /// The statistics per root move, one row each under a heading row (nothing without
    /// `--stats`).
    pub fn stats_divide_text(&self) -> String {
        if !self.move_stats {
            return String::new();
        }
        let mut text = format!("{:<7} {:>14}", "move", "nodes");
        for heading in STAT_HEADINGS {
            text += &format!(" {heading:>12}");
        }
        text += "\n";
        for (m, counts) in &self.divide {
            text += &format!("{:<7} {:>14}", m.to_string(), counts.nodes);
            for value in counts.stats.values() {
                text += &format!(" {value:>12}");
            }
            text += "\n";
        }
        text
    }

    /// The transposition table's statistics and risk (nothing for `off`).
    pub fn tt_text(&self) -> String {
        self.tt.as_ref().map_or_else(String::new, |tt| {
            tt.render_text(self.fast_total(), self.counts.nodes)
        })
    }

    /// The whole result: position, divide, total, timing, what ran it, the table, and the
    /// work counters.
    pub fn report_text(&self) -> String {
        format!(
            "Position: {}\nDepth: {}\n\n{}{}{}{}Run: {}, TT {}\n{}{}",
            self.position.to_fen(),
            self.depth,
            self.divide_text(),
            self.stats_text(),
            self.stats_divide_text(),
            self.timing_text(),
            self.ran_on(),
            self.tt_mode,
            self.tt_text(),
            self.work.render_text()
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::backend::Device;
    use crate::chess::Position;
    use crate::count::Counts;
    use crate::engine::event::PerftResult;
    use crate::tt::TtMode;
    use std::time::Duration;

    pub(crate) fn gpu_result() -> PerftResult {
        let position = Position::startpos();
        let divide: Vec<_> = crate::chess::movegen::legal_moves(&position)
            .iter()
            .map(|&m| (m, Counts::exact(1)))
            .collect();
        PerftResult {
            position,
            depth: 1,
            counts: Counts::exact(20),
            divide,
            elapsed: Duration::from_millis(2),
            device: Device::Vulkan {
                name: "Test GPU 9000".to_string(),
            },
            threads: 16,
            zobrist_seed: 1,
            tt_mode: TtMode::Off,
            tt: None,
            work: Default::default(),
            move_stats: false,
            stats_by_depth: Vec::new(),
        }
    }

    #[test]
    fn a_gpu_result_names_its_device_not_a_thread_count() {
        let result = gpu_result();
        assert_eq!(result.ran_on(), "vulkan (Test GPU 9000)");
        let report = result.report_text();
        assert!(
            report.contains("Run: vulkan (Test GPU 9000), TT off"),
            "{report}"
        );
        assert!(!report.contains("16"), "{report}");
    }

    #[test]
    fn report_lines() {
        let result = gpu_result();
        let divide = result.divide_text();
        assert_eq!(divide.lines().count(), 20 + 2);
        assert!(divide.ends_with("\nNodes searched: 20\n"));
        assert_eq!(
            result.timing_text(),
            "Time: 0.002 s\nNodes/second: 10,000\n"
        );
        assert!(result.report_text().starts_with(&format!(
            "Position: {}\nDepth: 1\n\n",
            Position::startpos().to_fen()
        )));
    }
}
