//! What tests and diagnostics ask of the GPU backend beyond perft: the shaders' view of the
//! shared structs, the hashes they compute, the table parameters they currently read, a table
//! loaded with entries no search makes, and one search stage run on given buffers (to compare
//! with its CPU twin, `gpu/twin/`).

use super::buffers::{mapped_bytes, write_mapped};
use super::DeviceRunner;
use crate::chess::{Hash128, Zobrist};
use crate::gpu::chunk_arrays::ChunkArray;
use crate::gpu::error::GpuError;
use crate::gpu::layouts::{
    tt_params_bytes, ChildRange, Control, GpuBoard, GpuU128, PositionLayout, SegmentAddresses,
    StepConstants, TtParamsHead,
};
use crate::gpu::shader_layout::{
    DEDUP_OUTPUT, WORK_DEPTHS, WORK_DUPLICATES, WORK_EXPANDED, WORK_LEAF_COUNT_OPS,
    WORK_NULL_COUNTED,
};
use crate::gpu::twin::buffers::{StageWork, TwinBuffers};
use crate::gpu::twin::table::{table_words, TwinTable};
use crate::gpu::vk::buffer::GpuBuffer;
use crate::gpu::vk::pipelines::Stage;
use crate::tt::{TranspositionTable, TtMode};
use gpu_allocator::MemoryLocation;

impl DeviceRunner {
    /// Runs the layout probe on the given values and returns what the shader saw, in the
    /// order of `glsl/layout_probe.comp`, each value v as the 128-bit (v, !v).
    pub fn probe_layouts(
        &mut self,
        board: GpuBoard,
        range: ChildRange,
        control_block: Control,
        step: StepConstants,
        tt_head: TtParamsHead,
        segments: &SegmentAddresses,
    ) -> Result<Vec<GpuU128>, GpuError> {
        write_mapped(
            &mut self.buffers.slots[0].upload,
            bytemuck::bytes_of(&board),
        )?;
        let first = u64::from(self.first_position());
        self.upload_array(ChunkArray::Children, first, bytemuck::bytes_of(&range))?;
        self.upload(&self.buffers.control, bytemuck::bytes_of(&control_block))?;
        self.upload(&self.table.params, &tt_params_bytes(&tt_head, segments))?;
        const PROBED_VALUES: u32 = 32;
        let probed = self.context.submit_and_wait(|recorder| {
            self.record_upload(recorder, 0, size_of::<GpuBoard>() as u64);
            self.pipelines
                .record_dispatch(recorder, Stage::LayoutProbe, &step, 1);
            recorder.barrier();
            self.record_readback(recorder, 0, ChunkArray::Counts, PROBED_VALUES, 0);
        });
        // Back to "no table" whatever happened.
        let restored = self.upload_no_table();
        probed?;
        restored?;
        self.read_back(0, PROBED_VALUES, 0)
    }

    /// The TT hashes the shaders compute for `boards` at `depth` plies remaining with the keys
    /// of `zobrist` (as `Zobrist::hash(position) ^ zobrist.depth_key(depth)` on the CPU).
    pub fn key_hashes(
        &mut self,
        zobrist: &Zobrist,
        boards: &[GpuBoard],
        depth: u32,
    ) -> Result<Vec<Hash128>, GpuError> {
        self.use_layout(PositionLayout::FULL)?;
        self.upload_zobrist(zobrist)?;
        write_mapped(
            &mut self.buffers.slots[0].upload,
            bytemuck::cast_slice(boards),
        )?;
        let count = boards.len() as u32;
        let step = StepConstants {
            remaining: depth,
            ..StepConstants::default()
        };
        self.context.submit_and_wait(|recorder| {
            self.record_chunk_start(recorder, 0, count, self.capacity);
            self.pipelines
                .record_dispatch(recorder, Stage::KeyProbe, &step, count);
            recorder.barrier();
            self.record_readback(recorder, 0, ChunkArray::Hashes, count, 0);
        })?;
        Ok(self
            .read_back(0, count, 0)?
            .into_iter()
            .map(Hash128::from)
            .collect())
    }

    /// The children the expand stage writes for `board` at `depth` plies remaining when the
    /// level it writes is deduplicated, each with the hash it hands on (computed from the
    /// parent's, and meant to be `Zobrist::hash(child) ^ zobrist.depth_key(depth - 1)`).
    pub fn child_hashes(
        &mut self,
        zobrist: &Zobrist,
        board: GpuBoard,
        depth: u32,
    ) -> Result<Vec<(GpuBoard, Hash128)>, GpuError> {
        self.use_layout(PositionLayout::FULL)?;
        self.upload_zobrist(zobrist)?;
        write_mapped(
            &mut self.buffers.slots[0].upload,
            bytemuck::bytes_of(&board),
        )?;
        let step = StepConstants {
            remaining: depth,
            flags: DEDUP_OUTPUT,
            ..StepConstants::default()
        };
        self.context.submit_and_wait(|recorder| {
            self.record_chunk_start(recorder, 0, 1, self.capacity);
            self.pipelines
                .record_dispatch(recorder, Stage::Expand, &step, 1);
            recorder.barrier();
            self.record_control_readback(recorder, 0);
        })?;
        // The parent and its children, as 128-bit values: two per board, then one per hash.
        let positions = 1 + self.read_control(0)?.appended;
        let value_bytes = size_of::<GpuU128>() as u64;
        let board_values = 2 * positions;
        self.context.submit_and_wait(|recorder| {
            let buffers = &self.buffers;
            let readback = &buffers.slots[0].readback;
            let first = u64::from(self.first_position());
            let board_bytes = u64::from(board_values) * value_bytes;
            let arrays = &buffers.arrays;
            arrays.record_copy_out(
                recorder,
                ChunkArray::Boards,
                first,
                board_bytes,
                readback,
                0,
            );
            let hash_bytes = u64::from(positions) * value_bytes;
            arrays.record_copy_out(
                recorder,
                ChunkArray::Hashes,
                first,
                hash_bytes,
                readback,
                board_bytes,
            );
        })?;
        let values = self.read_back(0, board_values + positions, 0)?;
        let (boards, hashes) = values.split_at(board_values as usize);
        Ok(boards
            .chunks_exact(2)
            .zip(hashes)
            .skip(1)
            .map(|(board, hash)| {
                let words = [board[0].low, board[0].high, board[1].low, board[1].high];
                (GpuBoard { planes: words }, Hash128::from(*hash))
            })
            .collect())
    }

    /// The head of the table parameters the shaders read now (mode 0: no table), copied back
    /// from device memory.
    pub fn table_params_in_use(&self) -> Result<TtParamsHead, GpuError> {
        let bytes = size_of::<TtParamsHead>();
        self.context.submit_and_wait(|recorder| {
            let readback = &self.buffers.slots[0].readback;
            recorder.copy(&self.table.params, 0, readback, 0, bytes as u64);
        })?;
        let words = self.read_back(0, bytes.div_ceil(size_of::<GpuU128>()) as u32, 0)?;
        Ok(bytemuck::pod_read_unaligned(
            &bytemuck::cast_slice::<GpuU128, u8>(&words)[..bytes],
        ))
    }

    /// Replaces the prepared table's entries with those of `table`, a CPU table of the same
    /// configuration (the GPU's twin layout), for checks that need entries no search makes:
    /// counts past 2^64, or past what a fast entry holds. The table must not be split by
    /// depth (`--tt-split shared`): its lines hold the CPU's buckets.
    pub fn load_table(&mut self, table: &TranspositionTable) -> Result<(), GpuError> {
        let shape = (table.mode(), table.verifier_bits(), table.buckets(), 0);
        self.load_table_words(shape, table_words(table))
    }

    /// Replaces the prepared table's entries with those of its twin, split as the device's
    /// is ([`Self::share_compact_lines`]).
    pub fn load_twin_table(&mut self, table: &TwinTable) -> Result<(), GpuError> {
        let (cpu, compact_lines) = (table.table(), table.compact_lines());
        let lines = cpu.buckets() + compact_lines as usize;
        let shape = (cpu.mode(), cpu.verifier_bits(), lines, compact_lines);
        self.load_table_words(shape, table.words())
    }

    /// Uploads `fast` and `exact` (the words of [`table_words`], a split table's compact lines
    /// first) to the prepared table if it has `shape`: mode, verifier bits, lines and compact
    /// lines.
    fn load_table_words(
        &mut self,
        shape: (TtMode, u32, usize, u64),
        (fast, exact): (Vec<u64>, Vec<u64>),
    ) -> Result<(), GpuError> {
        let refused = |reason| GpuError::Misuse {
            operation: "load a table",
            reason,
        };
        let Some(gpu_table) = &self.table.current else {
            return Err(refused("no table is prepared"));
        };
        let config = gpu_table.config();
        let (mode, verifier_bits, lines, compact_lines) = shape;
        let same = config.mode == mode
            && config.verifier_bits == verifier_bits
            && config.buckets().ok() == Some(lines)
            && gpu_table.compact_lines() == compact_lines;
        if !same {
            return Err(refused("the tables differ in configuration or split"));
        }
        // The fast array's segments come first (none in verified), then the exact array's.
        let fast_segments = if fast.is_empty() {
            0
        } else {
            gpu_table.segments()
        };
        let segments: Vec<&GpuBuffer> = gpu_table.buffers().collect();
        let (fast_buffers, exact_buffers) = segments.split_at(fast_segments);
        for (buffers, words) in [(fast_buffers, fast), (exact_buffers, exact)] {
            let mut bytes: &[u8] = bytemuck::cast_slice(&words);
            for segment in buffers {
                let (now, later) = bytes.split_at(bytes.len().min(segment.size as usize));
                self.upload(segment, now)?;
                bytes = later;
            }
        }
        Ok(())
    }

    /// The prepared table's entries as the device holds them, in the words of [`table_words`]:
    /// what the stages stored, to compare with their twin's table.
    pub fn stored_table_words(&self) -> Result<(Vec<u64>, Vec<u64>), GpuError> {
        let Some(gpu_table) = &self.table.current else {
            return Err(GpuError::Misuse {
                operation: "read the table",
                reason: "no table is prepared",
            });
        };
        let segments: Vec<&GpuBuffer> = gpu_table.buffers().collect();
        let fast_segments = match gpu_table.config().mode {
            TtMode::Verified => 0,
            _ => gpu_table.segments(),
        };
        let exact_segments = match gpu_table.config().mode {
            TtMode::Fast => 0,
            _ => gpu_table.segments(),
        };
        let (fast_buffers, rest) = segments.split_at(fast_segments);
        let exact_buffers = &rest[..exact_segments];
        let words = |buffers: &[&GpuBuffer]| -> Result<Vec<u64>, GpuError> {
            let mut words = Vec::new();
            for segment in buffers {
                let bytes = self.download(segment, segment.size as usize)?;
                words.extend(bytemuck::pod_collect_to_vec::<u8, u64>(&bytes));
            }
            Ok(words)
        };
        Ok((words(fast_buffers)?, words(exact_buffers)?))
    }

    /// Runs `stage` once, with the prepared table if any, over `buffers` as they are, dispatched as
    /// `record_dispatch` does for `invocations` invocations (one for `NextLevel`), with the keys
    /// of `zobrist` (for the hashes dedup makes of leaf entries), and returns the buffers and the
    /// work counters as the stage left them on the device. `buffers` must fit the chunk buffers
    /// of the full layout (see [`Self::capacity`] after a `certify` run).
    pub fn run_stage(
        &mut self,
        stage: Stage,
        step: &StepConstants,
        invocations: u32,
        buffers: &TwinBuffers,
        zobrist: &Zobrist,
    ) -> Result<TwinBuffers, GpuError> {
        self.use_layout(PositionLayout::FULL)?;
        self.upload_zobrist(zobrist)?;
        // The twin's buffers index positions from 0.
        if self.first_position() != 0 {
            return Err(GpuError::Misuse {
                operation: "run a stage",
                reason: "the chunk's first position is not 0",
            });
        }
        let arrays: [(ChunkArray, &[u8]); 6] = [
            (ChunkArray::Boards, bytemuck::cast_slice(&buffers.boards)),
            (
                ChunkArray::Children,
                bytemuck::cast_slice(&buffers.children),
            ),
            (ChunkArray::Counts, bytemuck::cast_slice(&buffers.counts)),
            (
                ChunkArray::FastCounts,
                bytemuck::cast_slice(&buffers.fast_counts),
            ),
            (ChunkArray::Hashes, bytemuck::cast_slice(&buffers.hashes)),
            (ChunkArray::Dedup, bytemuck::cast_slice(&buffers.dedup_set)),
        ];
        for (array, bytes) in arrays {
            self.upload_array(array, 0, bytes)?;
        }
        let device_buffers = &self.buffers;
        self.upload(
            &device_buffers.control,
            bytemuck::bytes_of(&buffers.control),
        )?;
        self.context.submit_and_wait(|recorder| {
            recorder.fill_zero(&device_buffers.work);
            recorder.barrier();
            self.pipelines
                .record_dispatch(recorder, stage, step, invocations);
        })?;
        let [boards, children, counts, fast_counts, hashes, dedup_set] =
            arrays.map(|(array, bytes)| self.download_array(array, 0, bytes.len()));
        let control = self.download(&device_buffers.control, size_of::<Control>())?;
        let work = self.download(&device_buffers.work, device_buffers.work.size as usize)?;
        let words: Vec<u32> = bytemuck::pod_collect_to_vec(&work);
        let counter = |word: u32| {
            let word = word as usize;
            u64::from(words[word]) | u64::from(words[word + 1]) << 32
        };
        let mut stage_work = StageWork {
            leaf_count_ops: counter(WORK_LEAF_COUNT_OPS),
            duplicates: counter(WORK_DUPLICATES),
            null_counted: counter(WORK_NULL_COUNTED),
            ..StageWork::default()
        };
        for depth in 0..WORK_DEPTHS {
            stage_work
                .expanded
                .add(depth, counter(WORK_EXPANDED + 2 * depth));
        }
        Ok(TwinBuffers {
            boards: bytemuck::pod_collect_to_vec(&boards?),
            children: bytemuck::pod_collect_to_vec(&children?),
            counts: bytemuck::pod_collect_to_vec(&counts?),
            fast_counts: bytemuck::pod_collect_to_vec(&fast_counts?),
            hashes: bytemuck::pod_collect_to_vec(&hashes?),
            dedup_set: bytemuck::pod_collect_to_vec(&dedup_set?),
            control: bytemuck::pod_read_unaligned(&control),
            work: stage_work,
        })
    }

    /// Writes `bytes` into `array` from element `first` on, through a staging buffer.
    pub(super) fn upload_array(
        &self,
        array: ChunkArray,
        first: u64,
        bytes: &[u8],
    ) -> Result<(), GpuError> {
        let mut staging = GpuBuffer::new(
            &self.context.shared,
            "array staging",
            bytes.len() as u64,
            MemoryLocation::CpuToGpu,
        )?;
        write_mapped(&mut staging, bytes)?;
        self.context.submit_and_wait(|recorder| {
            let arrays = &self.buffers.arrays;
            arrays.record_copy_in(recorder, &staging, 0, array, first, bytes.len() as u64);
        })?;
        Ok(())
    }

    /// `bytes` bytes of `array` from element `first` on, through a readback buffer of their
    /// own.
    fn download_array(
        &self,
        array: ChunkArray,
        first: u64,
        bytes: usize,
    ) -> Result<Vec<u8>, GpuError> {
        let readback = GpuBuffer::new(
            &self.context.shared,
            "array readback",
            bytes as u64,
            MemoryLocation::GpuToCpu,
        )?;
        self.context.submit_and_wait(|recorder| {
            let arrays = &self.buffers.arrays;
            arrays.record_copy_out(recorder, array, first, bytes as u64, &readback, 0);
        })?;
        Ok(mapped_bytes(&readback)?.to_vec())
    }

    /// The first `bytes` bytes of a device buffer, through a readback buffer of their own.
    fn download(&self, source: &GpuBuffer, bytes: usize) -> Result<Vec<u8>, GpuError> {
        let readback = GpuBuffer::new(
            &self.context.shared,
            "stage readback",
            bytes as u64,
            MemoryLocation::GpuToCpu,
        )?;
        self.context.submit_and_wait(|recorder| {
            recorder.copy(source, 0, &readback, 0, bytes as u64);
        })?;
        Ok(mapped_bytes(&readback)?.to_vec())
    }
}
