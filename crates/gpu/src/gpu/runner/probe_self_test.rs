//! The probe self-test, run when a device that holds the GPU table opens: for each table mode,
//! buckets are crafted in a small CPU table (the entry a probe looks for in every way of its
//! bucket, entries of other keys, an empty bucket, an entry a writer is busy on, an entry of
//! another depth, and for certify fast entries that accept another position's key), their bytes
//! copied to a GPU table, and `glsl/probe_self_test.comp` probes them through the shaders' real
//! `tt_probe` in one dispatch. The compact depth-2 buckets of a split fast table are crafted
//! with their Rust twin (`crates/table/src/tt/compact.rs`) and probed at depth 2 the same way. Its answers and statistics must be the CPU probe's for the same
//! bytes: a driver that miscompiles the probe (lavapipe 22.3 does so with a loop over the exact
//! entries, `glsl/common/tt_probe.glsl`) has its table modes refused, with what differed, instead of
//! returning wrong counts; `--tt off` still runs on it.

use super::buffers::{mapped_bytes, write_mapped};
use super::DeviceRunner;
use crate::chess::movegen::legal_moves;
use crate::chess::{Hash128, NybbleBoard, Position};
use crate::gpu::chunk_arrays::ChunkArray;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{tt_params_bytes, GpuBoard, GpuU128, PositionLayout, StepConstants};
use crate::gpu::options::SelfTestProbe;
use crate::gpu::tt_table::GpuTable;
use crate::gpu::twin::table::table_words;
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::pipelines::Stage;
use crate::tt::compact::{
    compact_check, compact_entry, compact_probe, compact_verifier_mask, CompactBucket,
    COMPACT_DEPTH, COMPACT_WAYS,
};
use crate::tt::exact::{ExactContents, ExactWriteGuard};
use crate::tt::fast::{fast_check, FastContents};
use crate::tt::split::COMPACT_BUCKETS_PER_LINE;
use crate::tt::{
    bucket_bytes, ways, BucketRef, Probe, TranspositionTable, TtConfig, TtCounters, TtMode,
};

/// The remaining depth of every probe.
const DEPTH: u32 = 5;

/// What one entry of a crafted bucket holds, relative to the probe of the bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Empty,
    /// The probe's own entry; the count it holds is derived from the number.
    Own(u64),
    /// Another position's entry.
    Other,
    /// The probe's own entry with a writer busy on it (an odd sequence): passed over.
    Busy(u64),
    /// The probe's key stored at another depth.
    OtherDepth,
    /// The probe's tag (verified, certify) or check (fast) with another position's key.
    OtherKeySameTag,
    /// certify: a fast entry that accepts the probe, its shadow another position's (a false
    /// hit).
    FalseHit(u64),
    /// certify: the probe's own shadow beside a fast entry of another key (a miss).
    ShadowOnly,
}

use Slot::{Busy, Empty, FalseHit, OtherDepth, OtherKeySameTag, Own, ShadowOnly};
const OTHER: Slot = Slot::Other;

/// The crafted buckets of `mode`, one per probe, each `ways(mode)` entries.
fn buckets(mode: TtMode) -> Vec<Vec<Slot>> {
    let ways = ways(mode).unwrap_or(0);
    // The probe's own entry in every way, the others of other keys.
    let mut buckets: Vec<Vec<Slot>> = (0..ways)
        .map(|way| {
            (0..ways)
                .map(|w| if w == way { Own(way as u64 + 1) } else { OTHER })
                .collect()
        })
        .collect();
    let rest: Vec<Vec<Slot>> = match mode {
        TtMode::Off => Vec::new(),
        TtMode::Fast => vec![
            vec![Empty; 4],
            vec![OTHER; 4],
            vec![Own(11), Own(12), Empty, Empty],
            vec![Empty, OTHER, Empty, Own(13)],
            vec![OtherDepth, OtherKeySameTag, Empty, Empty],
        ],
        TtMode::Verified => vec![
            vec![Empty; 2],
            vec![OTHER; 2],
            vec![Own(11), Own(12)],
            vec![Empty, Own(13)],
            vec![Busy(14), Empty],
            vec![Busy(15), Own(16)],
            vec![OtherDepth, Empty],
            vec![OtherKeySameTag, Own(17)],
        ],
        TtMode::Certify => vec![
            vec![Empty; 4],
            vec![OTHER; 4],
            vec![Own(11), Own(12), Empty, Empty],
            vec![Busy(13), Empty, Empty, Empty],
            vec![Busy(14), OTHER, Own(15), Empty],
            vec![OtherDepth, Empty, Empty, Empty],
            vec![OtherKeySameTag, Own(16), Empty, Empty],
            vec![FalseHit(17), Own(18), Empty, Empty],
            vec![OTHER, Empty, FalseHit(19), Empty],
            vec![ShadowOnly, Empty, Empty, Empty],
            vec![ShadowOnly, Own(20), OTHER, Empty],
        ],
    };
    buckets.extend(rest);
    buckets
}

/// The exact count an entry numbered `n` holds: above 64 bits, so both words count.
fn exact_count(n: u64) -> u128 {
    u128::from(n) << 64 | u128::from(n * 1_000 + 7)
}

/// The fast count beside it (certify keeps both, and they need not agree here).
fn fast_count(n: u64) -> u64 {
    n * 1_000 + 3
}

/// A probe of a crafted bucket: its key and hash (which puts it in bucket `bucket` of
/// `buckets`).
struct Request {
    position: Position,
    hash: Hash128,
}

/// A hash in bucket `bucket` of `buckets` (the multiply-high index of `hash.lo`), with high
/// bits of its own.
fn hash_in_bucket(bucket: usize, buckets: usize) -> Hash128 {
    let lo = ((bucket as u128) << 64 | 1 << 63) / buckets as u128;
    Hash128 {
        hi: (bucket as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        lo: lo as u64,
    }
}

/// Another position's hash, with high bits unlike `hash`'s.
fn other_hash(hash: Hash128) -> Hash128 {
    Hash128 {
        hi: hash.hi ^ 0xa5a5_5a5a_0f0f_f000,
        lo: hash.lo ^ 0x1234,
    }
}

/// Writes `slot` for `request` into entry `way` of its bucket in `table`; a busy slot's lock
/// is returned, to be held while the table is read.
fn craft<'t>(
    table: &'t TranspositionTable,
    request: &Request,
    other: &Position,
    way: usize,
    slot: Slot,
) -> Option<ExactWriteGuard<'t>> {
    let hash = request.hash;
    let key = NybbleBoard::from_position(&request.position);
    let other_key = NybbleBoard::from_position(other);
    // (hash, depth, key, fast count, exact count) of the entry, and of its fast entry in
    // certify when that differs.
    let own = |n| (hash, DEPTH, key, fast_count(n), exact_count(n));
    let stranger = (other_hash(hash), DEPTH, other_key, 77, exact_count(77));
    let (exact, fast) = match slot {
        Empty => return None,
        Own(n) | Busy(n) => (own(n), own(n)),
        Slot::Other => (stranger, stranger),
        OtherDepth => {
            let entry = (hash, DEPTH - 1, key, 78, exact_count(78));
            // fast mode: the other depth's key is another hash.
            (entry, (other_hash(hash), DEPTH - 1, key, 78, 0))
        }
        OtherKeySameTag => {
            let entry = (hash, DEPTH, other_key, 79, exact_count(79));
            (entry, entry)
        }
        FalseHit(n) => (stranger, own(n)),
        ShadowOnly => (own(80), stranger),
    };
    let written = |(hash, depth, _, count, _): (Hash128, u32, NybbleBoard, u64, u128)| {
        FastContents::written(fast_check(hash), count, depth)
    };
    let contents = |(hash, depth, key, _, count): (Hash128, u32, NybbleBoard, u64, u128)| {
        ExactContents::new(hash, depth, key, count)
    };
    let (entry, beside) = match table.bucket_of(hash) {
        BucketRef::Fast(bucket) => {
            bucket.entries[way].store(written(fast));
            return None;
        }
        BucketRef::Verified(bucket) => (&bucket.entries[way], None),
        BucketRef::Certify {
            fast: bucket,
            shadows,
        } => (&shadows[way], Some(&bucket.entries[way])),
    };
    let guard = entry
        .try_lock()
        .expect("nothing else writes the crafted table");
    if let Some(beside) = beside {
        beside.store(written(fast));
    }
    guard.write(&contents(exact));
    matches!(slot, Busy(_)).then_some(guard)
}

/// What the CPU table answers for the crafted buckets of one mode.
struct Expected {
    /// The table's mode, or "fast compact" for compact buckets.
    label: &'static str,
    config: TtConfig,
    /// The remaining depth of every probe.
    depth: u32,
    /// Lines of the GPU table given to compact buckets.
    compact_lines: u64,
    requests: Vec<Request>,
    slots: Vec<Vec<Slot>>,
    fast_words: Vec<u64>,
    exact_words: Vec<u64>,
    answers: Vec<Probe>,
    counters: TtCounters,
}

/// Crafts the buckets of `mode` in a CPU table and probes them there.
fn expected(mode: TtMode) -> Result<Expected, GpuError> {
    let slots = buckets(mode);
    let bucket_count = slots.len();
    let config = TtConfig::new(mode, bucket_count * bucket_bytes(mode).unwrap_or(0));
    let table = TranspositionTable::new(&config).map_err(table_error)?;
    let start = Position::startpos();
    let positions: Vec<Position> = legal_moves(&start)
        .into_iter()
        .map(|&m| start.play(m))
        .collect();
    let requests: Vec<Request> = (0..bucket_count)
        .map(|bucket| Request {
            position: positions[bucket % positions.len()],
            hash: hash_in_bucket(bucket, bucket_count),
        })
        .collect();
    let other = &start;
    let busy: Vec<ExactWriteGuard<'_>> = requests
        .iter()
        .zip(&slots)
        .flat_map(|(request, bucket)| {
            bucket
                .iter()
                .enumerate()
                .filter_map(|(way, &slot)| craft(&table, request, other, way, slot))
                .collect::<Vec<_>>()
        })
        .collect();
    let (fast_words, exact_words) = table_words(&table);
    let stats = table.thread_stats();
    let answers = requests
        .iter()
        .map(|request| table.probe(request.hash, &request.position, DEPTH, &stats))
        .collect();
    drop(busy);
    let counters = table.snapshot().total;
    Ok(Expected {
        label: mode.name(),
        config,
        depth: DEPTH,
        compact_lines: 0,
        requests,
        slots,
        fast_words,
        exact_words,
        answers,
        counters,
    })
}

/// The crafted compact buckets: the probe's own entry in every way, empty, full of other
/// positions, and mixed; each entry as a [`Slot`] (`Own(n)` holds count `n`).
fn compact_buckets() -> Vec<Vec<Slot>> {
    let mut buckets: Vec<Vec<Slot>> = (0..COMPACT_WAYS)
        .map(|way| {
            (0..COMPACT_WAYS)
                .map(|w| if w == way { Own(way as u64 + 1) } else { OTHER })
                .collect()
        })
        .collect();
    buckets.extend([
        vec![Empty; 4],
        vec![OTHER; 4],
        vec![Empty, Own(11), Own(12), Empty],
        vec![OTHER, Empty, Empty, Own(0)],
    ]);
    buckets
}

/// Crafts compact buckets with their Rust twin and probes them there, for a fast table whose
/// lines but the last are compact.
fn compact_expected() -> Expected {
    let slots = compact_buckets();
    let bucket_count = slots
        .len()
        .next_multiple_of(COMPACT_BUCKETS_PER_LINE as usize);
    let compact_lines = bucket_count as u64 / COMPACT_BUCKETS_PER_LINE;
    let config = TtConfig::new(TtMode::Fast, (compact_lines as usize + 1) * 64);
    let mask = compact_verifier_mask(config.verifier_bits);
    let start = Position::startpos();
    let mut buckets = vec![CompactBucket::default(); bucket_count];
    let mut requests = Vec::new();
    let mut counters = TtCounters::default();
    let mut answers = Vec::new();
    for (index, bucket_slots) in slots.iter().enumerate() {
        let hash = hash_in_bucket(index, bucket_count);
        let check = compact_check(hash);
        let other = compact_check(other_hash(hash));
        for (way, &slot) in bucket_slots.iter().enumerate() {
            buckets[index].entries[way] = match slot {
                Own(n) => compact_entry(check, n).unwrap_or(0),
                Slot::Other => compact_entry(other ^ (way as u64) << 20, 77).unwrap_or(0),
                _ => 0,
            };
        }
        let (count, wrong) = compact_probe(&buckets[index], check, mask);
        counters.probes += 1;
        counters.wrong_occupied_probes += wrong;
        answers.push(match count {
            Some(count) => {
                counters.hits += 1;
                Probe::Hit {
                    exact: u128::from(count),
                    fast: u128::from(count),
                }
            }
            None => {
                counters.misses += 1;
                Probe::Miss
            }
        });
        requests.push(Request {
            position: start,
            hash,
        });
    }
    let mut fast_words: Vec<u64> = buckets.iter().flat_map(|b| b.entries).collect();
    // The deep line after the compact ones, empty.
    fast_words.extend([0; 8]);
    Expected {
        label: "fast compact",
        config,
        depth: COMPACT_DEPTH,
        compact_lines,
        requests,
        slots,
        fast_words,
        exact_words: Vec::new(),
        answers,
        counters,
    }
}

fn table_error(err: impl std::fmt::Display) -> GpuError {
    GpuError::SelfTestTable(err.to_string())
}

/// The GPU's answer in `mode` as the CPU's `Probe`: kind 0 miss, 1 hit, 2 false hit
/// (`tt_probe.glsl`). A verified hit's fast count is its count, of which the GPU keeps only the low
/// word (nothing reads it: fast counts are kept in certify only).
fn answer(mode: TtMode, exact: GpuU128, fast: GpuU128) -> Probe {
    match fast.high {
        1 if mode == TtMode::Verified => Probe::Hit {
            exact: exact.into(),
            fast: exact.into(),
        },
        1 => Probe::Hit {
            exact: exact.into(),
            fast: u128::from(fast.low),
        },
        2 => Probe::FalseHit {
            fast: u128::from(fast.low),
        },
        _ => Probe::Miss,
    }
}

/// The counters a probe changes, as (name, value).
fn probe_counters(counters: &TtCounters) -> [(&'static str, u64); 5] {
    [
        ("probes", counters.probes),
        ("hits", counters.hits),
        ("misses", counters.misses),
        ("wrong-occupied", counters.wrong_occupied_probes),
        ("false hits", counters.false_hits),
    ]
}

/// Every way the device's answers and counters differ from the CPU's, in words.
fn differences(expected: &Expected, answers: &[Probe], counters: &TtCounters) -> Vec<String> {
    let mode = expected.label;
    let mut found: Vec<String> = expected
        .answers
        .iter()
        .zip(answers)
        .zip(&expected.slots)
        .enumerate()
        .filter(|(_, ((cpu, gpu), _))| cpu != gpu)
        .map(|(bucket, ((cpu, gpu), slots))| {
            format!("{mode} bucket {bucket} {slots:?}: device {gpu:?}, CPU {cpu:?}")
        })
        .collect();
    for ((name, cpu), (_, gpu)) in probe_counters(&expected.counters)
        .into_iter()
        .zip(probe_counters(counters))
    {
        if cpu != gpu {
            found.push(format!("{mode} {name}: device {gpu}, CPU {cpu}"));
        }
    }
    found
}

impl DeviceRunner {
    /// Runs the probe self-test with `probe` (see the module docs); `TableProbeMismatch` names
    /// what differed. Nothing to test on a device without the GPU table.
    pub fn probe_self_test(&mut self, probe: SelfTestProbe) -> Result<(), GpuError> {
        if !self.supports_tt() {
            return Ok(());
        }
        let stage = match probe {
            SelfTestProbe::Shipped => Stage::ProbeSelfTest,
            SelfTestProbe::LoopedExactWays => Stage::ProbeSelfTestLooped,
        };
        self.pipelines.add_stage(stage)?;
        let mut found = Vec::new();
        let mut cases = Vec::new();
        for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            cases.push(expected(mode)?);
        }
        cases.push(compact_expected());
        // The probes read hashes and write fast counts, which only the full layout keeps.
        let layout = self.layout;
        self.use_layout(PositionLayout::FULL)?;
        for expected in cases {
            let tested = self.probe_crafted(stage, &expected);
            // No table again, whatever happened.
            let restored = self.upload_no_table();
            let (answers, counters) = tested?;
            restored?;
            found.extend(differences(&expected, &answers, &counters));
        }
        self.use_layout(layout)?;
        if found.is_empty() {
            Ok(())
        } else {
            Err(GpuError::TableProbeMismatch {
                device: self.device_name().to_string(),
                differences: found.join("; "),
            })
        }
    }

    /// The answers and counters of one dispatch of `stage` over the requests of `expected`, on a
    /// GPU table holding its bytes.
    fn probe_crafted(
        &mut self,
        stage: Stage,
        expected: &Expected,
    ) -> Result<(Vec<Probe>, TtCounters), GpuError> {
        let shared = &self.context.shared;
        let max_segment_bytes = u64::from(self.context.info().max_storage_buffer_range);
        let mut table = GpuTable::new(shared, &expected.config, max_segment_bytes)?;
        table.set_compact_lines(expected.compact_lines);
        let segments: Vec<&GpuBuffer> = table.buffers().collect();
        let arrays = [&expected.fast_words, &expected.exact_words];
        for (segment, words) in segments.iter().zip(arrays.iter().filter(|w| !w.is_empty())) {
            self.upload(segment, bytemuck::cast_slice(words))?;
        }
        self.upload(
            &self.table.params,
            &tt_params_bytes(&table.head(), &table.addresses()),
        )?;
        let zeros = vec![0u8; self.table.stats.size as usize];
        self.upload(&self.table.stats, &zeros)?;
        let count = expected.requests.len() as u32;
        let boards: Vec<GpuBoard> = expected
            .requests
            .iter()
            .map(|request| NybbleBoard::from_position(&request.position).into())
            .collect();
        write_mapped(
            &mut self.buffers.slots[0].upload,
            bytemuck::cast_slice(&boards),
        )?;
        let hash_values: Vec<GpuU128> = expected
            .requests
            .iter()
            .map(|request| GpuU128::from(request.hash))
            .collect();
        let first = u64::from(self.first_position());
        self.upload_array(
            ChunkArray::Hashes,
            first,
            bytemuck::cast_slice(&hash_values),
        )?;
        let step = StepConstants {
            remaining: expected.depth,
            ..StepConstants::default()
        };
        self.context.submit_and_wait(|recorder| {
            self.record_chunk_start(recorder, 0, count, self.capacity);
            self.pipelines
                .record_dispatch(recorder, stage, &step, count);
            recorder.barrier();
            self.record_readback(recorder, 0, ChunkArray::Counts, count, 0);
            self.record_readback(recorder, 0, ChunkArray::FastCounts, count, count);
            self.record_stats_readback(recorder, 0);
        })?;
        self.upload(&self.table.stats, &zeros)?;
        let exact = self.read_back(0, count, 0)?;
        let fast = self.read_back(0, count, count)?;
        let mode = expected.config.mode;
        let answers = exact
            .into_iter()
            .zip(fast)
            .map(|(exact, fast)| answer(mode, exact, fast))
            .collect();
        let words: Vec<u64> =
            bytemuck::pod_collect_to_vec(mapped_bytes(&self.buffers.slots[0].stats_readback)?);
        Ok((answers, table.snapshot(&words).total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crafted_buckets_give_every_answer_on_the_cpu() {
        for mode in [TtMode::Fast, TtMode::Verified, TtMode::Certify] {
            let expected = expected(mode).expect("a CPU table");
            let ways = ways(mode).expect("a table mode");
            // The probe's own entry in way w answers with its count.
            for way in 0..ways {
                let n = way as u64 + 1;
                let (exact, fast) = match mode {
                    TtMode::Fast => (u128::from(fast_count(n)), u128::from(fast_count(n))),
                    TtMode::Verified => (exact_count(n), exact_count(n)),
                    _ => (exact_count(n), u128::from(fast_count(n))),
                };
                assert_eq!(expected.answers[way], Probe::Hit { exact, fast }, "{mode}");
            }
            let count = |wanted: fn(&Probe) -> bool| {
                expected
                    .answers
                    .iter()
                    .filter(|&answer| wanted(answer))
                    .count()
            };
            assert!(count(|answer| *answer == Probe::Miss) >= 2, "{mode}");
            let false_hits = count(|answer| matches!(answer, Probe::FalseHit { .. }));
            assert_eq!(false_hits > 0, mode == TtMode::Certify, "{mode}");
            assert!(expected.counters.wrong_occupied_probes > 0, "{mode}");
        }
    }

    #[test]
    fn the_crafted_compact_buckets_give_every_answer_on_the_cpu() {
        let expected = compact_expected();
        for way in 0..COMPACT_WAYS {
            let count = way as u128 + 1;
            assert_eq!(
                expected.answers[way],
                Probe::Hit {
                    exact: count,
                    fast: count
                }
            );
        }
        let last = expected.answers.len() - 1;
        assert_eq!(expected.answers[last], Probe::Hit { exact: 0, fast: 0 });
        assert_eq!(expected.answers[COMPACT_WAYS], Probe::Miss);
        assert_eq!(expected.counters.misses, 2);
        assert_eq!(expected.counters.wrong_occupied_probes, 3 * 4 + 4 + 1);
        assert_eq!(
            expected.fast_words.len() as u64,
            (expected.compact_lines + 1) * 8
        );
    }

    #[test]
    fn a_wrong_answer_is_reported() {
        let expected = expected(TtMode::Verified).expect("a CPU table");
        let mut answers = expected.answers.clone();
        answers[1] = Probe::Miss;
        let mut counters = expected.counters;
        assert!(differences(&expected, &expected.answers, &counters).is_empty());
        counters.hits -= 1;
        let found = differences(&expected, &answers, &counters);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("verified bucket 1 [Other, Own(2)]: device Miss"),
            "{found:?}"
        );
        assert_eq!(found[1], "verified hits: device 5, CPU 6");
    }
}
