//! How many items a chunk submitted whole may hold, so that no submission keeps the device busy
//! for long: a desktop GPU's watchdog resets the device after about 2 s (Windows TDR), macOS
//! aborts long command buffers, and a run is only cancelled between submissions.
//!
//! The last chunk of a depth gives its positions per item and device time per position, from
//! which the items that fit half of [`SUBMISSION_TARGET`] are predicted; the chunk's levels may
//! hold at most the positions that fit a longer bound (more overflow, and the chunk is redone
//! smaller), and after a whole chunk that overran the target the next one of its depth goes in
//! parts. Parts themselves are sized by the executor (`gpu/runner/pacing.rs`).

use std::collections::BTreeMap;
use std::time::Duration;

/// What one submission should stay under.
pub const SUBMISSION_TARGET: Duration = Duration::from_millis(100);
/// Whole chunks are predicted to take this share of the target.
const AIM: Duration = Duration::from_millis(SUBMISSION_TARGET.as_millis() as u64 / 2);
/// The longest a whole chunk may run at the rate of the last one of its depth.
const WHOLE_CHUNK_BOUND: Duration = Duration::from_millis(800);

/// What the last chunk of one depth measured.
#[derive(Clone, Copy, Debug)]
struct ChunkRate {
    positions_per_item: f64,
    nanos_per_position: f64,
    /// The last whole chunk took longer than the target, or its positions did not fit the
    /// bound: the next chunk goes in parts.
    overran: bool,
}

/// Whole-chunk sizes per depth, learned from the chunks of this device.
#[derive(Clone, Debug, Default)]
pub struct ChunkPacer {
    /// By the items' remaining depth.
    chunks: BTreeMap<u32, ChunkRate>,
}

impl ChunkPacer {
    /// Items `remaining` plies deep that one whole-chunk submission may hold, predicted from
    /// the positions per item and the time per position of the last chunk of that depth; `None`
    /// before one was timed, after a whole one overran, or when one item takes too long.
    pub fn whole_chunk_items(&self, remaining: u32) -> Option<usize> {
        let rate = self.chunks.get(&remaining)?;
        if rate.overran {
            return None;
        }
        let item_nanos = rate.positions_per_item * rate.nanos_per_position;
        let fitting = AIM.as_nanos() as f64 / item_nanos.max(f64::MIN_POSITIVE);
        (fitting >= 1.0).then(|| fitting.min(usize::MAX as f64) as usize)
    }

    /// The most positions a whole chunk of items `remaining` plies deep may hold (all its
    /// levels): what [`WHOLE_CHUNK_BOUND`] covers at the last time per position of that depth,
    /// sixteen times what its items are chosen for, so that only a chunk of sixteen times the
    /// predicted size overflows (items of one depth vary that much only rarely), and none runs
    /// near a watchdog's 2 s.
    pub fn whole_chunk_positions(&self, remaining: u32) -> Option<u64> {
        let rate = self.chunks.get(&remaining)?;
        let bound = WHOLE_CHUNK_BOUND;
        let fitting = bound.as_nanos() as f64 / rate.nanos_per_position.max(f64::MIN_POSITIVE);
        Some(fitting.min(u64::MAX as f64) as u64)
    }

    /// A chunk of `items` items `remaining` plies deep, `positions` in all its levels, took
    /// `took` on the device, submitted whole or not.
    pub fn record_chunk(
        &mut self,
        remaining: u32,
        items: usize,
        positions: u64,
        took: Duration,
        whole: bool,
    ) {
        if items == 0 || positions == 0 {
            return;
        }
        // A whole chunk queued before the last one overran was sized as that one: it does not
        // clear the overrun (a chunk in parts does).
        let overran_before = self.chunks.get(&remaining).is_some_and(|rate| rate.overran);
        self.chunks.insert(
            remaining,
            ChunkRate {
                positions_per_item: positions as f64 / items as f64,
                nanos_per_position: took.as_nanos() as f64 / positions as f64,
                overran: whole && (took > SUBMISSION_TARGET || overran_before),
            },
        );
    }

    /// Positions in all levels per item of the last chunk of items `remaining` plies deep.
    pub fn positions_per_item(&self, remaining: u32) -> Option<f64> {
        Some(self.chunks.get(&remaining)?.positions_per_item)
    }

    /// A whole chunk of items `remaining` plies deep held more positions than its bound: the
    /// next chunk of that depth goes in parts.
    pub fn overran(&mut self, remaining: u32) {
        if let Some(rate) = self.chunks.get_mut(&remaining) {
            rate.overran = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_chunks_hold_the_positions_that_fit_half_the_target() {
        let mut pacer = ChunkPacer::default();
        assert_eq!(pacer.whole_chunk_items(5), None);
        assert_eq!(pacer.whole_chunk_positions(5), None);
        // 10 items of 1,000 positions each in 10 ms: 1 µs per position.
        pacer.record_chunk(5, 10, 10_000, Duration::from_millis(10), false);
        assert_eq!(pacer.whole_chunk_items(5), Some(50));
        assert_eq!(pacer.whole_chunk_positions(5), Some(800_000));
        assert_eq!(pacer.whole_chunk_items(4), None);
        // One item over half the target: parts only.
        pacer.record_chunk(6, 1, 100, AIM * 2, false);
        assert_eq!(pacer.whole_chunk_items(6), None);
    }

    #[test]
    fn a_whole_chunk_that_overran_sends_the_next_in_parts() {
        let mut pacer = ChunkPacer::default();
        pacer.record_chunk(5, 10, 10_000, SUBMISSION_TARGET * 2, true);
        assert_eq!(pacer.whole_chunk_items(5), None);
        // A chunk in parts measures again; whole chunks resume.
        pacer.record_chunk(5, 1, 1_000, Duration::from_millis(1), false);
        assert_eq!(pacer.whole_chunk_items(5), Some(50));
        pacer.overran(5);
        assert_eq!(pacer.whole_chunk_items(5), None);
        assert_eq!(pacer.whole_chunk_positions(5), Some(800_000));
        // The whole chunk queued behind the one that overran does not clear it.
        pacer.record_chunk(5, 1, 1_000, Duration::from_millis(1), true);
        assert_eq!(pacer.whole_chunk_items(5), None);
        pacer.record_chunk(5, 1, 1_000, Duration::from_millis(1), false);
        assert_eq!(pacer.whole_chunk_items(5), Some(50));
    }
}
