//! The table's arrays: all-zero elements whose memory the OS backs only as it is first written,
//! so a shallow run with a table of gigabytes costs the pages it touches, not the budget.
//!
//! The standard allocator zeroes an allocation aligned beyond 16 bytes itself
//! (`posix_memalign` and a memset that touches every page up front), and the table's buckets
//! are aligned to cache lines. So the array is carved out of an allocation of 16-byte alignment,
//! which `alloc_zeroed` takes from `calloc`, at its first address aligned for `T`. A large
//! `calloc` block is a fresh anonymous mapping: the kernel maps zero pages and gives a page its
//! own frame on the first write. The table's only unsafe code beside the prefetch hint
//! (allowed for this module alone in `crates/table/src/tt/mod.rs`).
//!
//! A probe lands on a random bucket: with 4 KiB pages nearly every probe of a large table also
//! misses the TLB, and the page walk stalls even a prefetch. So the array asks Linux to back
//! it with transparent huge pages (`MADV_HUGEPAGE`, which the common `madvise` setting of
//! `/sys/kernel/mm/transparent_hugepage/enabled` needs); a 2 MiB page is still taken only
//! when first written. A kernel that refuses keeps the small pages: only speed changes.

use super::config::TtError;
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ptr::NonNull;

/// The alignment of the allocation: the largest for which the system allocator's zeroed
/// allocation is `calloc` on common platforms.
const ALLOCATION_ALIGN: usize = 16;

/// `len` elements of `T`, all zero, in memory that is backed as it is used.
pub struct ZeroedArray<T> {
    allocation: NonNull<u8>,
    layout: Layout,
    elements: NonNull<T>,
    len: usize,
}

// SAFETY: the array owns its elements as a `Box<[T]>` would; sharing or sending it shares or
// sends the `T`s.
unsafe impl<T: Send> Send for ZeroedArray<T> {}
// SAFETY: as above; `&ZeroedArray<T>` hands out only `&T`.
unsafe impl<T: Sync> Sync for ZeroedArray<T> {}

impl<T: bytemuck::Zeroable> ZeroedArray<T> {
    /// `len` all-zero elements, or an error if the allocation fails.
    pub fn new(len: usize) -> Result<ZeroedArray<T>, TtError> {
        let failed = TtError::AllocationFailed {
            bytes: len.saturating_mul(size_of::<T>()),
        };
        // Room for the elements from the first aligned address, wherever the block starts.
        let size = len
            .checked_mul(size_of::<T>())
            .and_then(|bytes| bytes.checked_add(align_of::<T>()))
            .ok_or(failed.clone())?;
        let layout = Layout::from_size_align(size, ALLOCATION_ALIGN).map_err(|_| failed.clone())?;
        // SAFETY: `layout` has a non-zero size (at least `align_of::<T>()`).
        let allocation = NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or(failed)?;
        let offset = allocation.as_ptr().align_offset(align_of::<T>());
        debug_assert!(offset < align_of::<T>().max(1));
        // SAFETY: `offset < align_of::<T>()`, so the elements end within the allocation.
        let first = unsafe { allocation.as_ptr().add(offset) }.cast::<T>();
        advise_huge_pages(allocation, size);
        Ok(ZeroedArray {
            allocation,
            layout,
            elements: NonNull::new(first).expect("inside a non-null allocation"),
            len,
        })
    }
}

/// Huge pages only pay off past a few of them; smaller tables (the tests') keep small pages.
const HUGE_PAGE_MIN_BYTES: usize = 8 * HUGE_PAGE_BYTES;
/// The size of a transparent huge page on x86-64 and most arm64 kernels.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Asks for transparent huge pages on the whole huge pages inside the `size` bytes at
/// `allocation`, unless told not to; a refusal (another OS, THP off) is no error.
fn advise_huge_pages(allocation: NonNull<u8>, size: usize) {
    if size < HUGE_PAGE_MIN_BYTES || !super::huge_pages::huge_pages_wanted() {
        return;
    }
    let start = allocation.as_ptr().align_offset(HUGE_PAGE_BYTES);
    let length = (size - start) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    #[cfg(target_os = "linux")]
    {
        use nix::sys::mman::{madvise, MmapAdvise};
        // SAFETY: the range lies inside the live allocation (`start + length <= size`) and
        // starts on a page boundary; the advice changes how the kernel backs the pages, not
        // their contents (still zero until written).
        let _refusal_keeps_small_pages = unsafe {
            madvise(
                NonNull::new_unchecked(allocation.as_ptr().add(start)).cast(),
                length,
                MmapAdvise::MADV_HUGEPAGE,
            )
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, length);
}

impl<T> std::ops::Deref for ZeroedArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` elements from an address aligned for `T`, inside a live allocation,
        // zeroed when allocated and `T: Zeroable` (the all-zero bit pattern is a valid `T`);
        // they are only ever borrowed shared, so any mutation goes through `T`'s own interior
        // mutability.
        unsafe { std::slice::from_raw_parts(self.elements.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        // SAFETY: the elements are valid `T`s that nothing borrows any more, dropped once; the
        // allocation was made with `self.layout`.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.elements.as_ptr(),
                self.len,
            ));
            dealloc(self.allocation.as_ptr(), self.layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(C, align(64))]
    #[derive(bytemuck::Zeroable)]
    struct Line {
        words: [AtomicU64; 8],
    }

    #[test]
    fn elements_are_zeroed_aligned_and_writable() {
        let lines = ZeroedArray::<Line>::new(1 << 12).expect("256 KiB");
        assert_eq!(lines.len(), 1 << 12);
        assert_eq!(lines.as_ptr().align_offset(64), 0);
        assert!(lines
            .iter()
            .all(|line| line.words.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
        lines[4095].words[7].store(7, Ordering::Relaxed);
        assert_eq!(lines[4095].words[7].load(Ordering::Relaxed), 7);
    }

    #[test]
    fn an_empty_array_is_fine() {
        let lines = ZeroedArray::<Line>::new(0).expect("no bytes");
        assert!(lines.is_empty());
    }

    /// Sizes whose bytes overflow, and 4 EiB, beyond any address space.
    #[test]
    fn impossible_allocations_are_errors() {
        for len in [usize::MAX / 4, usize::MAX / 64, 1 << 56] {
            // Opaque to the optimiser, which may otherwise assume an unused allocation succeeds.
            let result = std::hint::black_box(ZeroedArray::<Line>::new(std::hint::black_box(len)));
            assert!(
                matches!(result, Err(TtError::AllocationFailed { .. })),
                "{len}"
            );
        }
    }
}
