//! A chunk's level arrays (boards, children, counts, fast counts, hashes, the dedup set, and in
//! a move-type statistics run the statistics and fast statistics) in
//! segments that the shaders reach by device address (`glsl/common/buffers.glsl`), as the table
//! does (`tt_table.rs`): an array may exceed one storage-buffer binding (`maxStorageBufferRange`:
//! 128 MiB on lavapipe, 4 GiB on most desktop GPUs) and one allocation, so a GPU's chunk may
//! take tens of GiB.
//!
//! Every array is split at the same power of two, `segment_bytes` (the largest within the
//! device's `maxMemoryAllocationSize` and 2 GiB): element `i` lies at byte `i * size`, in segment
//! `byte >> log2(segment_bytes)`, and no element straddles two segments (element sizes are
//! powers of two below a segment). Each segment an array reaches is an allocation of its own,
//! holding only the bytes its positions use; the address the shaders get for it is where the
//! segment's byte 0 would be, so their arithmetic is the same whatever part is allocated.
//!
//! Positions are indexed from [`SegmentLayout::first_position`] on, 0 unless a debug knob
//! ([`FIRST_POSITION_VARIABLE`]) moves a chunk's positions up, so that its byte offsets pass
//! 4 GiB while little memory is allocated: the segments below the first one used are not
//! allocated (address 0), and the shaders' offsets really are that large.

use super::error::GpuError;
use super::layouts::{inner_positions, ChildRange, GpuBoard, GpuU128, PositionLayout};
use super::shader_layout::{
    CHUNK_ARRAYS, CHUNK_BOARDS, CHUNK_CHILDREN, CHUNK_COUNTS, CHUNK_DEDUP, CHUNK_FAST_COUNTS,
    CHUNK_FAST_STATS, CHUNK_HASHES, CHUNK_MAX_SEGMENTS, CHUNK_STATS, DEDUP_SLOTS_PER_POSITION,
    STAT_COLUMNS,
};
use super::vk::buffer::GpuBuffer;
use super::vk::recorder::Recorder;
use super::vk::shared::DeviceShared;
use std::sync::Arc;

/// Debug knob: the bytes of every segment, a power of two from [`MIN_SEGMENT_BYTES`] to
/// [`MAX_SEGMENT_BYTES`] (small ones make lavapipe exercise many segments).
pub const SEGMENT_BYTES_VARIABLE: &str = "VKPERFT_CHUNK_SEGMENT_BYTES";
/// Debug knob: the index of a chunk's first position (see the module's documentation).
pub const FIRST_POSITION_VARIABLE: &str = "VKPERFT_CHUNK_FIRST_POSITION";

pub const MIN_SEGMENT_BYTES: u64 = 256;
/// No segment is larger than this, whatever the device allows.
pub const MAX_SEGMENT_BYTES: u64 = 1 << 31;
/// Position indices stay below this (`LEAF_ENTRY_DUPLICATE` is bit 31 of a leaf entry's word).
pub const MAX_POSITION_INDEX: u64 = i32::MAX as u64;

/// One of a chunk's level arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkArray {
    Boards,
    Children,
    Counts,
    FastCounts,
    Hashes,
    Dedup,
    Stats,
    FastStats,
}

impl ChunkArray {
    pub const ALL: [ChunkArray; CHUNK_ARRAYS as usize] = [
        ChunkArray::Boards,
        ChunkArray::Children,
        ChunkArray::Counts,
        ChunkArray::FastCounts,
        ChunkArray::Hashes,
        ChunkArray::Dedup,
        ChunkArray::Stats,
        ChunkArray::FastStats,
    ];

    /// Its row of the `ChunkArrays` block.
    pub fn row(self) -> u32 {
        match self {
            ChunkArray::Boards => CHUNK_BOARDS,
            ChunkArray::Children => CHUNK_CHILDREN,
            ChunkArray::Counts => CHUNK_COUNTS,
            ChunkArray::FastCounts => CHUNK_FAST_COUNTS,
            ChunkArray::Hashes => CHUNK_HASHES,
            ChunkArray::Dedup => CHUNK_DEDUP,
            ChunkArray::Stats => CHUNK_STATS,
            ChunkArray::FastStats => CHUNK_FAST_STATS,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ChunkArray::Boards => "boards",
            ChunkArray::Children => "children",
            ChunkArray::Counts => "counts",
            ChunkArray::FastCounts => "fast counts",
            ChunkArray::Hashes => "hashes",
            ChunkArray::Dedup => "dedup set",
            ChunkArray::Stats => "statistics",
            ChunkArray::FastStats => "fast statistics",
        }
    }

    /// Bytes of one element (a dedup slot: a position has `DEDUP_SLOTS_PER_POSITION`; a
    /// statistic: a position has `STAT_COLUMNS`).
    pub const fn element_bytes(self) -> u64 {
        (match self {
            ChunkArray::Boards => size_of::<GpuBoard>(),
            ChunkArray::Children => size_of::<ChildRange>(),
            ChunkArray::Counts
            | ChunkArray::FastCounts
            | ChunkArray::Hashes
            | ChunkArray::Stats
            | ChunkArray::FastStats => size_of::<GpuU128>(),
            ChunkArray::Dedup => size_of::<u32>(),
        }) as u64
    }

    /// Elements per position.
    pub const fn per_position(self) -> u64 {
        match self {
            ChunkArray::Dedup => DEDUP_SLOTS_PER_POSITION as u64,
            ChunkArray::Stats | ChunkArray::FastStats => STAT_COLUMNS as u64,
            _ => 1,
        }
    }

    /// Positions of a chunk of `capacity` the array holds with `layout`: every level's
    /// (`children`, and with a table the dedup set), the levels' before the compact leaf level,
    /// or one where the layout leaves it out (to have something to point at).
    pub fn positions(self, capacity: u64, layout: PositionLayout) -> u64 {
        let inner = inner_positions(capacity);
        match self {
            ChunkArray::Children => capacity,
            ChunkArray::Dedup if layout.table => capacity,
            ChunkArray::Boards | ChunkArray::Counts => inner,
            ChunkArray::Hashes if layout.table => inner,
            ChunkArray::FastCounts if layout.fast_counts => inner,
            ChunkArray::Stats if layout.move_stats => inner,
            ChunkArray::FastStats if layout.move_stats && layout.fast_counts => inner,
            _ => 1,
        }
    }
}

/// Where a chunk's arrays lie: their segments' size and the index of the first position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentLayout {
    pub segment_bytes: u64,
    pub first_position: u32,
}

/// A piece of a byte range that lies in one segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub segment: u64,
    /// The piece's first byte within its segment.
    pub offset: u64,
    pub bytes: u64,
    /// The piece's first byte from the start of the range.
    pub from_start: u64,
}

impl SegmentLayout {
    /// Segments of the largest power of two within `max_allocation` and [`MAX_SEGMENT_BYTES`],
    /// positions from 0.
    pub fn for_max_allocation(max_allocation: u64) -> SegmentLayout {
        let bytes = max_allocation.clamp(MIN_SEGMENT_BYTES, MAX_SEGMENT_BYTES);
        SegmentLayout {
            segment_bytes: 1 << bytes.ilog2(),
            first_position: 0,
        }
    }

    /// [`Self::for_max_allocation`] with the debug knobs' values, read by `variable` (the
    /// environment): a bad value is an error.
    pub fn with_overrides(
        max_allocation: u64,
        variable: impl Fn(&str) -> Option<String>,
    ) -> Result<SegmentLayout, GpuError> {
        let mut layout = SegmentLayout::for_max_allocation(max_allocation);
        if let Some(text) = variable(SEGMENT_BYTES_VARIABLE) {
            layout.segment_bytes = text
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|bytes| {
                    bytes.is_power_of_two()
                        && (MIN_SEGMENT_BYTES..=MAX_SEGMENT_BYTES).contains(bytes)
                })
                .ok_or(GpuError::BadOverride {
                    variable: SEGMENT_BYTES_VARIABLE,
                    expected: "a power of two from 256 to 2147483648",
                    value: text,
                })?;
        }
        if let Some(text) = variable(FIRST_POSITION_VARIABLE) {
            layout.first_position = text
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&first| u64::from(first) < MAX_POSITION_INDEX)
                .ok_or(GpuError::BadOverride {
                    variable: FIRST_POSITION_VARIABLE,
                    expected: "a whole number below 2147483647",
                    value: text,
                })?;
        }
        Ok(layout)
    }

    pub fn segment_shift(self) -> u32 {
        self.segment_bytes.ilog2()
    }

    /// The first byte of `array`'s element `element`.
    pub fn byte_of(self, array: ChunkArray, element: u64) -> u64 {
        element * array.element_bytes()
    }

    /// The first element of `array` that a chunk's positions use.
    pub fn first_element(self, array: ChunkArray) -> u64 {
        u64::from(self.first_position) * array.per_position()
    }

    /// The bytes of `array` the positions `first_position..first_position + positions` take.
    pub fn range(self, array: ChunkArray, positions: u64) -> std::ops::Range<u64> {
        let start = self.byte_of(array, self.first_element(array));
        start..start + positions * array.per_position() * array.element_bytes()
    }

    /// The pieces of the bytes `start..start + bytes`, one per segment they reach.
    pub fn pieces(self, start: u64, bytes: u64) -> impl Iterator<Item = Piece> {
        let segment_bytes = self.segment_bytes;
        let end = start + bytes;
        let mut at = start;
        std::iter::from_fn(move || {
            (at < end).then(|| {
                let segment = at / segment_bytes;
                let offset = at % segment_bytes;
                let piece_bytes = (segment_bytes - offset).min(end - at);
                let piece = Piece {
                    segment,
                    offset,
                    bytes: piece_bytes,
                    from_start: at - start,
                };
                at += piece_bytes;
                piece
            })
        })
    }

    /// Whether a chunk of `capacity` positions with `layout` fits: its position indices below
    /// [`MAX_POSITION_INDEX`], every array's bytes within [`CHUNK_MAX_SEGMENTS`] segments.
    pub fn fits(self, capacity: u64, layout: PositionLayout) -> bool {
        let reachable = u64::from(CHUNK_MAX_SEGMENTS) * self.segment_bytes;
        u64::from(self.first_position) + capacity <= MAX_POSITION_INDEX
            && ChunkArray::ALL
                .iter()
                .all(|&array| self.range(array, array.positions(capacity, layout)).end <= reachable)
    }

    /// The most positions (at most `wanted`) a chunk with `layout` may have in these segments.
    pub fn max_capacity(self, wanted: u64, layout: PositionLayout) -> u64 {
        if self.fits(wanted, layout) {
            return wanted;
        }
        // `fits` is monotonic in the capacity: the largest that fits, by bisection.
        let (mut fitting, mut too_many) = (0, wanted);
        while too_many - fitting > 1 {
            let middle = fitting + (too_many - fitting) / 2;
            if self.fits(middle, layout) {
                fitting = middle;
            } else {
                too_many = middle;
            }
        }
        fitting
    }

    /// Segments the arrays of a chunk of `capacity` positions with `layout` reach, together.
    pub fn segments(self, capacity: u64, layout: PositionLayout) -> u64 {
        ChunkArray::ALL
            .iter()
            .map(|&array| {
                let range = self.range(array, array.positions(capacity, layout));
                self.pieces(range.start, range.end - range.start).count() as u64
            })
            .sum()
    }
}

/// The head of the `ChunkArrays` block; `CHUNK_ARRAYS` rows of `CHUNK_MAX_SEGMENTS` segment
/// addresses follow it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ChunkArraysHead {
    pub segment_shift: u32,
    pub first_position: u32,
}

/// Bytes of the whole `ChunkArrays` block.
pub const CHUNK_ARRAYS_BYTES: u64 = (size_of::<ChunkArraysHead>()
    + (CHUNK_ARRAYS * CHUNK_MAX_SEGMENTS) as usize * size_of::<u64>())
    as u64;

/// One allocated segment: its buffer holds the array's bytes from `start` on.
struct Segment {
    index: u64,
    start: u64,
    buffer: GpuBuffer,
}

/// A chunk's arrays in device memory and the `ChunkArrays` block that points at them.
pub struct ChunkArrays {
    layout: SegmentLayout,
    arrays: Vec<Vec<Segment>>,
    /// The `ChunkArrays` block (device-local: every access of an array reads it).
    pub block: GpuBuffer,
}

impl ChunkArrays {
    /// The arrays of a chunk of `capacity` positions with `position_layout`, which must fit
    /// `layout` ([`SegmentLayout::fits`]). The block is allocated but not written: upload
    /// [`Self::block_bytes`] before the shaders run.
    pub fn new(
        shared: &Arc<DeviceShared>,
        layout: SegmentLayout,
        capacity: u64,
        position_layout: PositionLayout,
    ) -> Result<ChunkArrays, GpuError> {
        debug_assert!(layout.fits(capacity, position_layout));
        let mut arrays = Vec::with_capacity(ChunkArray::ALL.len());
        for array in ChunkArray::ALL {
            let range = layout.range(array, array.positions(capacity, position_layout));
            let segments = layout
                .pieces(range.start, range.end - range.start)
                .map(|piece| {
                    let start = piece.segment * layout.segment_bytes + piece.offset;
                    GpuBuffer::new_addressable(shared, array.name(), piece.bytes).map(|buffer| {
                        Segment {
                            index: piece.segment,
                            start,
                            buffer,
                        }
                    })
                })
                .collect::<Result<_, _>>()?;
            arrays.push(segments);
        }
        let block = GpuBuffer::new(
            shared,
            "chunk arrays",
            CHUNK_ARRAYS_BYTES,
            gpu_allocator::MemoryLocation::GpuOnly,
        )?;
        Ok(ChunkArrays {
            layout,
            arrays,
            block,
        })
    }

    pub fn layout(&self) -> SegmentLayout {
        self.layout
    }

    /// Segments allocated, all arrays together.
    pub fn segments(&self) -> usize {
        self.arrays.iter().map(Vec::len).sum()
    }

    /// The `ChunkArrays` block: where each segment's byte 0 would be (its buffer's address
    /// less the bytes before `start` it does not hold), 0 for segments not allocated.
    pub fn block_bytes(&self) -> Vec<u8> {
        let head = ChunkArraysHead {
            segment_shift: self.layout.segment_shift(),
            first_position: self.layout.first_position,
        };
        let mut addresses = vec![0u64; (CHUNK_ARRAYS * CHUNK_MAX_SEGMENTS) as usize];
        for (array, segments) in ChunkArray::ALL.iter().zip(&self.arrays) {
            for segment in segments {
                let unheld = segment.start - segment.index * self.layout.segment_bytes;
                let slot = (array.row() * CHUNK_MAX_SEGMENTS) as usize + segment.index as usize;
                addresses[slot] = segment.buffer.device_address().wrapping_sub(unheld);
            }
        }
        let mut bytes = bytemuck::bytes_of(&head).to_vec();
        bytes.extend_from_slice(bytemuck::cast_slice(&addresses));
        bytes
    }

    /// The buffer regions of `array`'s bytes from element `first` on, `bytes` long: (buffer,
    /// offset in it, bytes, offset from the range's start). Panics where the range is not
    /// allocated, which a copy would otherwise overrun.
    fn regions(
        &self,
        array: ChunkArray,
        first: u64,
        bytes: u64,
    ) -> Vec<(&GpuBuffer, u64, u64, u64)> {
        let segments = &self.arrays[array.row() as usize];
        self.layout
            .pieces(self.layout.byte_of(array, first), bytes)
            .map(|piece| {
                let at = piece.segment * self.layout.segment_bytes + piece.offset;
                let segment = segments
                    .iter()
                    .find(|segment| segment.index == piece.segment)
                    .filter(|segment| {
                        at >= segment.start
                            && at + piece.bytes <= segment.start + segment.buffer.size
                    })
                    .unwrap_or_else(|| {
                        panic!(
                            "{} bytes {at}..{} are not allocated",
                            array.name(),
                            at + piece.bytes
                        )
                    });
                (
                    &segment.buffer,
                    at - segment.start,
                    piece.bytes,
                    piece.from_start,
                )
            })
            .collect()
    }

    /// Records a copy of `bytes` from `source` (from `source_offset`) into `array` from
    /// element `first` on.
    pub fn record_copy_in(
        &self,
        recorder: &Recorder,
        source: &GpuBuffer,
        source_offset: u64,
        array: ChunkArray,
        first: u64,
        bytes: u64,
    ) {
        for (target, offset, piece_bytes, from_start) in self.regions(array, first, bytes) {
            recorder.copy(
                source,
                source_offset + from_start,
                target,
                offset,
                piece_bytes,
            );
        }
    }

    /// Records a copy of `bytes` of `array` from element `first` on into `target` from
    /// `target_offset`.
    pub fn record_copy_out(
        &self,
        recorder: &Recorder,
        array: ChunkArray,
        first: u64,
        bytes: u64,
        target: &GpuBuffer,
        target_offset: u64,
    ) {
        for (source, offset, piece_bytes, from_start) in self.regions(array, first, bytes) {
            recorder.copy(
                source,
                offset,
                target,
                target_offset + from_start,
                piece_bytes,
            );
        }
    }

    /// Records zeroing `bytes` (a multiple of 4) of `array` from element `first` on (offsets
    /// and sizes in segments are multiples of 4: segments are powers of two of at least 256
    /// bytes, elements 4 bytes or more).
    pub fn record_clear(&self, recorder: &Recorder, array: ChunkArray, first: u64, bytes: u64) {
        for (buffer, offset, piece_bytes, _) in self.regions(array, first, bytes) {
            recorder.fill_zero_range(buffer, offset, piece_bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    #[test]
    fn segments_are_the_largest_power_of_two_within_the_allocation_limit() {
        assert_eq!(
            SegmentLayout::for_max_allocation(4 * GIB).segment_bytes,
            2 * GIB
        );
        assert_eq!(
            SegmentLayout::for_max_allocation(3 * GIB).segment_bytes,
            2 * GIB
        );
        assert_eq!(
            SegmentLayout::for_max_allocation(GIB + 1).segment_bytes,
            GIB
        );
        assert_eq!(
            SegmentLayout::for_max_allocation(100 << 20).segment_bytes,
            64 << 20
        );
        assert_eq!(
            SegmentLayout::for_max_allocation(0).segment_bytes,
            MIN_SEGMENT_BYTES
        );
    }

    #[test]
    fn overrides_are_checked() {
        let with = |name: &'static str, value: &'static str| {
            move |asked: &str| (asked == name).then(|| value.to_string())
        };
        let layout =
            SegmentLayout::with_overrides(4 * GIB, with(SEGMENT_BYTES_VARIABLE, "256")).unwrap();
        assert_eq!(layout.segment_bytes, 256);
        assert_eq!(layout.segment_shift(), 8);
        let first =
            SegmentLayout::with_overrides(GIB, with(FIRST_POSITION_VARIABLE, " 5000 ")).unwrap();
        assert_eq!(first.first_position, 5000);
        assert_eq!(first.segment_bytes, GIB);
        for bad in ["255", "384", "4294967296", "128", "x", ""] {
            assert!(matches!(
                SegmentLayout::with_overrides(GIB, with(SEGMENT_BYTES_VARIABLE, bad)),
                Err(GpuError::BadOverride {
                    variable: SEGMENT_BYTES_VARIABLE,
                    ..
                })
            ));
        }
        for bad in ["2147483647", "-1", "1e9"] {
            assert!(matches!(
                SegmentLayout::with_overrides(GIB, with(FIRST_POSITION_VARIABLE, bad)),
                Err(GpuError::BadOverride {
                    variable: FIRST_POSITION_VARIABLE,
                    ..
                })
            ));
        }
    }

    /// A range is cut at every segment boundary it crosses, and its pieces cover it in order.
    #[test]
    fn pieces_cover_a_range_segment_by_segment() {
        let layout = SegmentLayout {
            segment_bytes: 256,
            first_position: 0,
        };
        let pieces: Vec<Piece> = layout.pieces(200, 400).collect();
        assert_eq!(
            pieces,
            [
                Piece {
                    segment: 0,
                    offset: 200,
                    bytes: 56,
                    from_start: 0
                },
                Piece {
                    segment: 1,
                    offset: 0,
                    bytes: 256,
                    from_start: 56
                },
                Piece {
                    segment: 2,
                    offset: 0,
                    bytes: 88,
                    from_start: 312
                },
            ]
        );
        assert_eq!(layout.pieces(512, 0).count(), 0);
        assert_eq!(layout.pieces(512, 256).count(), 1);
    }

    /// A first position past 2^27 puts a chunk's boards past 4 GiB (past 2^29: every array),
    /// in the segments that hold those offsets.
    #[test]
    fn a_first_position_moves_every_array_past_4_gib() {
        let layout = SegmentLayout {
            segment_bytes: 2 * GIB,
            first_position: (1 << 30) + (1 << 28) - 1000,
        };
        let position_layout = PositionLayout {
            move_stats: true,
            ..PositionLayout::FULL
        };
        for array in ChunkArray::ALL {
            let range = layout.range(array, array.positions(1 << 20, position_layout));
            assert!(range.start > 4 * GIB, "{array:?} {range:?}");
            // Each range crosses a segment boundary.
            assert_eq!(
                layout.pieces(range.start, range.end - range.start).count(),
                2
            );
        }
        assert!(layout.fits(1 << 20, position_layout));
        assert_eq!(layout.segments(1 << 20, position_layout), 16);
    }

    /// Capacity is bounded by the position indices and by the segments each array may have.
    #[test]
    fn capacity_stays_within_indices_and_segments() {
        let layout = PositionLayout::PLAIN;
        let big = SegmentLayout::for_max_allocation(4 * GIB);
        assert_eq!(big.max_capacity(u64::MAX / 64, layout), MAX_POSITION_INDEX);
        let moved = SegmentLayout {
            first_position: 1 << 30,
            ..big
        };
        assert_eq!(
            moved.max_capacity(1 << 40, layout),
            MAX_POSITION_INDEX - (1 << 30)
        );
        let tiny = SegmentLayout {
            segment_bytes: 256,
            first_position: 0,
        };
        // Children and dedup slots: 512 segments of 32 and of 64; boards: 512 of 8, for a
        // quarter of the positions, whose counts and hashes take 256 segments each; the
        // statistics, which a node count leaves out, one segment each.
        let capacity = tiny.max_capacity(1 << 30, PositionLayout::FULL);
        assert_eq!(capacity, 16_384);
        assert!(tiny.fits(capacity, PositionLayout::FULL));
        assert!(!tiny.fits(capacity + 1, PositionLayout::FULL));
        assert_eq!(
            tiny.segments(capacity, PositionLayout::FULL),
            3 * 512 + 3 * 256 + 2
        );
    }
}
