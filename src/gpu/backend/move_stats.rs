//! Move-type statistics on the GPU (`--stats`): one search per statistic besides the node
//! count's. A statistic is a sum over the last ply's moves, as the node count is, so every
//! stage, the host's plan and the table work for it unchanged: only the leaf differs, its
//! statistics build (`leaf_stats.comp`) counting the moves of one type where the node count's
//! counts them all. The node count's search keeps its pipelines and register budget. The table
//! is emptied before each statistic's search, its entries holding another statistic's sums,
//! and after the last, so that the next run finds no entry that is not a node count.

use super::VulkanBackend;
use crate::backend::run_control::{ProgressSample, RunControl};
use crate::backend::{RunError, RunOutcome, RunRequest};
use crate::chess::{Move, MoveStats, Position, TALLIED_COUNT};
use crate::count::Counts;
use crate::gpu::pipelines::Stage;

/// Searches of a statistics run: the node count's, then one per statistic.
const SEARCHES: usize = 1 + TALLIED_COUNT;

impl VulkanBackend {
    /// Perft of `request` with the move-type statistics. The table's statistics and the work
    /// counters are the node count's search's; progress goes over every search, and each root
    /// move is reported done once all of them have counted it.
    pub(super) fn run_with_stats(
        &mut self,
        request: &RunRequest,
        control: &RunControl<'_>,
    ) -> Result<RunOutcome, RunError> {
        let (position, depth) = (request.position, request.depth);
        let on_progress = spread_progress(control, 0, None);
        let divide = self.divide(&position, depth, &search_control(control, &on_progress))?;
        let mut outcome = self.outcome_of(divide)?;
        let total = outcome.divide.iter().map(|(_, counts)| counts.nodes).sum();
        if depth == 1 {
            // The plan counted the root's moves: each one's statistics are its own.
            for (m, counts) in &mut outcome.divide {
                counts.stats = MoveStats::of_move(&position, *m);
                counts.fast_stats = counts.stats;
            }
        } else if depth > 1 {
            self.pipelines.add_stage(Stage::LeafStats)?;
            let mut values =
                vec![([0u128; TALLIED_COUNT], [0u128; TALLIED_COUNT]); outcome.divide.len()];
            for stat in 0..TALLIED_COUNT {
                let on_progress = spread_progress(control, 1 + stat, Some(total));
                let control = search_control(control, &on_progress);
                for (m, counts) in self.search_stat(stat as u32, &position, depth, &control)? {
                    let root = outcome
                        .divide
                        .iter()
                        .position(|(known, _)| *known == m)
                        .expect("every search has the same root moves");
                    values[root].0[stat] = counts.nodes;
                    values[root].1[stat] = counts.fast_nodes;
                }
            }
            self.clear_table()?;
            for ((_, counts), (value, fast)) in outcome.divide.iter_mut().zip(values) {
                counts.stats = MoveStats::from_values(value);
                counts.fast_stats = MoveStats::from_values(fast);
            }
        }
        for &(m, counts) in &outcome.divide {
            (control.on_root_done)(m, counts);
        }
        Ok(outcome)
    }

    /// The search whose leaf counts statistic `stat`'s moves, from an empty table.
    fn search_stat(
        &mut self,
        stat: u32,
        position: &Position,
        depth: u32,
        control: &RunControl<'_>,
    ) -> Result<Vec<(Move, Counts)>, RunError> {
        self.clear_table()?;
        self.move_stat = Some(stat);
        let divide = self.divide(position, depth, control);
        self.move_stat = None;
        divide
    }
}

/// `control`'s progress hook for search `index` of a statistics run: the share of the tasks
/// done over every search, and the node count, `nodes`, once it is known.
fn spread_progress<'a>(
    control: &'a RunControl<'a>,
    index: usize,
    nodes: Option<u128>,
) -> impl Fn(ProgressSample) + Sync + 'a {
    move |sample: ProgressSample| {
        (control.on_progress)(ProgressSample {
            nodes: nodes.unwrap_or(sample.nodes),
            tasks_done: index * sample.tasks_total + sample.tasks_done,
            tasks_total: SEARCHES * sample.tasks_total,
            ..sample
        })
    }
}

/// The control of one search of a statistics run: `control`'s cancel flag, `on_progress`, and
/// no root move reported done (each is, once every search has counted it).
fn search_control<'a>(
    control: &'a RunControl<'a>,
    on_progress: &'a (dyn Fn(ProgressSample) + Sync),
) -> RunControl<'a> {
    RunControl {
        cancel: control.cancel,
        progress_interval: control.progress_interval,
        on_progress,
        on_root_done: &|_, _| {},
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
