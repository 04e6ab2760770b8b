//! How many positions of a level go into one submission when a chunk goes in parts, so that
//! no submission keeps the device busy for long (see `gpu/scheduler/chunk_pacer.rs`, which sizes
//! whole chunks).
//!
//! Each stage's device time per position is measured from the submissions themselves
//! (timestamps, see `Context::wait`), and the next part of a level is sized to take half of
//! [`SUBMISSION_TARGET`], leaving room for positions that cost more than the last ones.

use crate::gpu::scheduler::SUBMISSION_TARGET;
use crate::gpu::shader_layout::WORKGROUP_SIZE;
use crate::gpu::vk::pipelines::Stage;
use std::time::Duration;

/// Parts are sized for this share of the target.
const AIM: Duration = Duration::from_millis(SUBMISSION_TARGET.as_millis() as u64 / 2);
/// Positions of the first part of a stage that has not been timed yet.
const FIRST_PART: u32 = 16 * WORKGROUP_SIZE;
/// A part at most grows by this factor over the last one: one quick part of cheap positions
/// does not make the next part huge.
const MAX_GROWTH: u32 = 8;

/// The stages a level is submitted in parts for.
const PACED: [Stage; 7] = [
    Stage::Dedup,
    Stage::Expand,
    Stage::Leaf,
    Stage::Upsweep,
    Stage::ExpandStats,
    Stage::LeafStats,
    Stage::UpsweepStats,
];

#[derive(Clone, Copy, Debug, Default)]
struct StageRate {
    /// Device nanoseconds per position of the last part; `None` before the first.
    nanos_per_position: Option<f64>,
    /// Positions of the last part.
    last_part: u32,
}

/// Part sizes per stage, learned from the submissions of this device.
#[derive(Clone, Debug, Default)]
pub struct PartPacer {
    rates: [StageRate; PACED.len()],
}

impl PartPacer {
    fn rate(&mut self, stage: Stage) -> &mut StageRate {
        let index = PACED
            .iter()
            .position(|&paced| paced == stage)
            .expect("only the search stages are paced");
        &mut self.rates[index]
    }

    /// Positions the next part of a `stage` level may hold: a multiple of the workgroup size
    /// (parts must not share a workgroup), at least one workgroup.
    pub fn part_positions(&mut self, stage: Stage) -> u32 {
        let rate = *self.rate(stage);
        let Some(nanos) = rate.nanos_per_position else {
            return FIRST_PART;
        };
        let fitting = AIM.as_nanos() as f64 / nanos.max(f64::MIN_POSITIVE);
        let grown = rate.last_part.saturating_mul(MAX_GROWTH);
        let positions = fitting.min(f64::from(grown)).min(f64::from(u32::MAX)) as u32;
        (positions / WORKGROUP_SIZE).max(1) * WORKGROUP_SIZE
    }

    /// A part of `positions` positions of `stage` took `took` on the device.
    pub fn record(&mut self, stage: Stage, positions: u32, took: Duration) {
        if positions == 0 {
            return;
        }
        let rate = self.rate(stage);
        rate.nanos_per_position = Some(took.as_nanos() as f64 / f64::from(positions));
        rate.last_part = positions;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_start_small_and_are_sized_for_half_the_target() {
        let mut pacer = PartPacer::default();
        assert_eq!(pacer.part_positions(Stage::Leaf), FIRST_PART);
        // 1 µs per position: 50,000 positions fit half the target, but growth is capped.
        pacer.record(
            Stage::Leaf,
            FIRST_PART,
            Duration::from_micros(u64::from(FIRST_PART)),
        );
        assert_eq!(pacer.part_positions(Stage::Leaf), FIRST_PART * MAX_GROWTH);
        pacer.record(Stage::Leaf, 40_000, Duration::from_millis(40));
        let next = pacer.part_positions(Stage::Leaf);
        assert_eq!(next % WORKGROUP_SIZE, 0);
        assert!((49_000..=50_000).contains(&next), "{next}");
        // Other stages keep their own rate.
        assert_eq!(pacer.part_positions(Stage::Expand), FIRST_PART);
    }

    #[test]
    fn slow_positions_get_a_workgroup_per_part() {
        let mut pacer = PartPacer::default();
        pacer.record(Stage::Upsweep, 64, Duration::from_secs(1));
        assert_eq!(pacer.part_positions(Stage::Upsweep), WORKGROUP_SIZE);
        pacer.record(Stage::Dedup, 64, Duration::ZERO);
        assert_eq!(pacer.part_positions(Stage::Dedup), 64 * MAX_GROWTH);
    }
}
