//! A result as people read it; the CLI prints and the window shows and exports these lines.

use super::event::PerftResult;
use crate::backend::Device;
use crate::chess::movegen::legal_moves;
use crate::chess::{Convention, MoveStat, MoveStats, Position};
use crate::count::{thousands, Counts};
use crate::tt::TtMode;
use std::time::Duration;

/// Move-type statistics, one per line by JSON key, the Grand Chess Tree's columns (checks
/// without mates) then the wiki's own (checks with mates), with the fast table's beside them
/// when given.
pub fn move_stats_text(stats: &MoveStats, fast: Option<&MoveStats>) -> String {
    let mut text = String::from(
        "Move-type statistics of the last ply (Grand Chess Tree columns: checks without mates):\n",
    );
    let wiki_only = MoveStat::WIKI
        .into_iter()
        .filter(|stat| !MoveStat::GRAND_CHESS_TREE.contains(stat));
    for (i, stat) in MoveStat::GRAND_CHESS_TREE
        .into_iter()
        .chain(wiki_only)
        .enumerate()
    {
        if i == MoveStat::GRAND_CHESS_TREE.len() {
            text += "Chess Programming Wiki columns (checks with mates; discovered and double \
                     checks without):\n";
        }
        text += &format!("  {:<24} {:>20}", stat.key(), thousands(stats.get(stat)));
        if let Some(fast) = fast {
            text += &format!("   fast table: {}", thousands(fast.get(stat)));
        }
        text += "\n";
    }
    text
}

impl PerftResult {
    /// What ran the job: `cpu (16 thread(s))`, `vulkan (NVIDIA H200)`.
    pub fn ran_on(&self) -> String {
        self.device.summary()
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

    /// The statistics per root move in the Grand Chess Tree's columns, one row each under a
    /// heading row of JSON keys (nothing without `--stats`).
    pub fn stats_divide_text(&self) -> String {
        if !self.move_stats {
            return String::new();
        }
        let columns = Convention::GrandChessTree.columns();
        let mut text = format!("{:<7} {:>14}", "move", "nodes");
        for stat in columns {
            text += &format!(" {:>w$}", stat.key(), w = stat.key().len().max(12));
        }
        text += "\n";
        for (m, counts) in &self.divide {
            text += &format!("{:<7} {:>14}", m.to_string(), counts.nodes);
            for &stat in columns {
                text += &format!(
                    " {:>w$}",
                    counts.stats.get(stat),
                    w = stat.key().len().max(12)
                );
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

    /// A finished run for tests of what shows results (the text here, the window's history
    /// and its file): depth 1 of the start position on a Vulkan device named "Test GPU 9000",
    /// every root move counted once, without a table.
    pub fn sample_on_gpu() -> PerftResult {
        let position = Position::startpos();
        let divide: Vec<_> = legal_moves(&position)
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
}

#[cfg(test)]
mod tests {
    use crate::chess::Position;
    use crate::engine::event::PerftResult;

    #[test]
    fn a_gpu_result_names_its_device_not_a_thread_count() {
        let result = PerftResult::sample_on_gpu();
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
        let result = PerftResult::sample_on_gpu();
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
