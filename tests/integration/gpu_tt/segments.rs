//! The chunk arrays in segments reached by device address (`crates/gpu/src/gpu/chunk_arrays.rs`): many
//! tiny segments, whose boundaries fall inside every level, and a chunk whose positions start
//! at an index that puts every array's byte offsets past 4 GiB (beyond 32-bit arithmetic),
//! each exact per root move in every table mode.

use super::*;
use vkperft::gpu::chunk_arrays::{ChunkArray, MAX_POSITION_INDEX};

const GIB: u64 = 1 << 30;

/// Every mode, `off` included, against the CPU per root move on `gpu`.
fn every_mode_matches_the_cpu(gpu: &mut VulkanBackend, pos: &Position, depth: u32) {
    let expected = cpu_divide(pos, depth);
    for mode in [TtMode::Off, TtMode::Fast, TtMode::Verified, TtMode::Certify] {
        let table = config(mode, MIB, DEFAULT_VERIFIER_BITS);
        let (divide, _) = gpu_run(
            gpu,
            pos,
            depth,
            &table,
            &Zobrist::default(),
            &common::silent_control(),
        );
        assert_eq!(nodes_by_move(&divide), nodes_by_move(&expected), "{mode}");
    }
}

/// 256-byte segments: 8 boards or 32 child entries each, so the arrays take thousands of
/// segments (the 512 an array may have bound the chunk's capacity) and every level crosses
/// many boundaries.
#[test]
fn chunk_arrays_in_tiny_segments_match_the_cpu_per_root_move() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(32 << 20),
        chunk_segment_bytes: Some(256),
        ..GpuOptions::default()
    })
    .expect("the device opens");
    // Without a table: 512 segments of children, 512 of boards for a quarter of them.
    assert_eq!(gpu.runner().capacity(), 16_384);
    every_mode_matches_the_cpu(&mut gpu, &position("kiwipete"), 4);
    // certify, the last mode, keeps every array of a node count (the statistics arrays one
    // segment each).
    assert_eq!(gpu.runner().chunk_segments(), 3 * 512 + 3 * 256 + 2);
}

/// A chunk's first position at 2^30 + 2^28 - 1000: the children's and dedup slots' bytes
/// start near 10 GiB, the counts' near 20 GiB and the boards' near 40 GiB, each range
/// crossing a 2 GiB segment boundary, while the arrays below them are not allocated.
#[test]
fn chunk_byte_offsets_past_4_gib_match_the_cpu_per_root_move() {
    let first: u32 = (1 << 30) + (1 << 28) - 1000;
    let mut gpu = VulkanBackend::new(&GpuOptions {
        memory_budget: Some(32 << 20),
        chunk_first_position: Some(first),
        ..GpuOptions::default()
    })
    .expect("the device opens");
    assert_eq!(gpu.runner().first_position(), first);
    for array in ChunkArray::ALL {
        let first_byte = u64::from(first) * array.element_bytes();
        assert!(first_byte > 4 * GIB, "{array:?} at {first_byte}");
    }
    assert!(u64::from(first) + u64::from(gpu.runner().capacity()) <= MAX_POSITION_INDEX);
    every_mode_matches_the_cpu(&mut gpu, &position("kiwipete"), 4);
    every_mode_matches_the_cpu(&mut gpu, &Position::startpos(), 5);
}
