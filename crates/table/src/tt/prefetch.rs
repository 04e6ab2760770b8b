//! The cache prefetch hint: with the lazily backed arrays (`zeroed_array.rs`), the table's
//! only unsafe code (allowed for these two modules alone in `crates/table/src/tt/mod.rs`).

/// Asks the CPU to load the cache line holding the start of `item` into all cache levels. A
/// hint: it reads nothing the program sees and never faults. No-op off x86_64.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; the pointer comes from a live
    // reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
