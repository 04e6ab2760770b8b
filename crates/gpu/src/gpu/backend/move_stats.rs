//! Move-type statistics on the GPU (`--stats`): one search, whose stages carry every
//! position's statistics beside its counts (`expand_stats`, `leaf_stats`, `upsweep_stats`;
//! `glsl/common/move_stats.glsl`). The leaf tallies every column of the moves it counts, a
//! table hit gives them from the entry's statistics slots (`glsl/common/tt_move_stats.glsl`),
//! and upsweep sums and stores them as it does counts, so the scheduler, the table and the
//! progress reports work as in a node count. The chunk buffers and the table of a statistics
//! run are laid out for it ([`PositionLayout::move_stats`], `TtConfig::move_stats`).

use super::VulkanBackend;
use crate::backend::run_control::RunControl;
use crate::backend::{RunError, RunOutcome, RunRequest};
use crate::chess::{Move, MoveStats};
use crate::count::Counts;

impl VulkanBackend {
    /// Perft of `request` with the move-type statistics, or without them on a table that
    /// keeps them: its slots must stay right for the next statistics run, so it counts them
    /// too and leaves them out of its result, as the CPU does.
    pub(super) fn run_with_stats(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
        self.runner.prepare_stats_run()?;
        let (position, depth) = (request.position, request.depth);
        let with_stats = |m: Move, counts: &mut Counts| {
            if !request.move_stats {
                counts.stats = MoveStats::default();
                counts.fast_stats = counts.stats;
            } else if depth == 1 {
                // The plan counts the root's moves: each one's statistics are its own.
                counts.stats = MoveStats::of_move(&position, m);
                counts.fast_stats = counts.stats;
            }
        };
        let on_root_done = |m: Move, mut counts: Counts| {
            with_stats(m, &mut counts);
            (control.on_root_done)(m, counts);
        };
        let control = RunControl {
            on_root_done: &on_root_done,
            ..*control
        };
        let mut divide = self.divide(&position, depth, &control)?;
        for (m, counts) in &mut divide {
            with_stats(*m, counts);
        }
        self.outcome_of(divide)
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::{CheckKind, MoveStat, TALLIED_COUNT};
    use crate::gpu::shader_layout::{
        STAT_CAPTURES, STAT_CASTLES, STAT_CHECKS_BY_KIND, STAT_EN_PASSANT, STAT_MATES_BY_KIND,
        STAT_PROMOTIONS, STAT_STALEMATES,
    };

    #[test]
    fn the_shaders_number_the_statistics_as_the_cpu_counts_them() {
        let kinds = [
            CheckKind::Direct,
            CheckKind::SingleDiscovered,
            CheckKind::DirectDiscovered,
            CheckKind::DoubleDiscovered,
        ];
        let mut numbered = vec![
            (STAT_CAPTURES, MoveStat::Captures),
            (STAT_EN_PASSANT, MoveStat::EnPassants),
            (STAT_CASTLES, MoveStat::Castles),
            (STAT_PROMOTIONS, MoveStat::Promotions),
            (STAT_STALEMATES, MoveStat::Stalemates),
        ];
        for kind in kinds {
            numbered.push((STAT_CHECKS_BY_KIND + kind as u32, kind.checks()));
            numbered.push((STAT_MATES_BY_KIND + kind as u32, kind.mates()));
        }
        assert_eq!(numbered.len(), TALLIED_COUNT);
        for (stat, column) in numbered {
            assert_eq!(column.tallied_index(), Some(stat as usize), "{column:?}");
        }
    }
}
