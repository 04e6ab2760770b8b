//! Fallible allocation of the table arrays: a budget the machine cannot meet is an error for
//! the user, never an abort or a later kill by the OOM killer.

use super::config::TtError;

/// `MemAvailable` from `/proc/meminfo` in bytes, where the system reports it.
pub fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&meminfo)
}

fn parse_mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// Refuses a table of `needed` bytes when the machine reports less memory available.
pub fn check_available(needed: usize) -> Result<(), TtError> {
    match available_memory() {
        Some(available) if needed > available => {
            Err(TtError::MoreThanAvailable { needed, available })
        }
        _ => Ok(()),
    }
}

/// `len` all-zero elements, or an error if the allocation fails. The memory comes zeroed from
/// the allocator (fresh pages from the OS for large tables), so it is not written here and a
/// run pays only for the pages it touches.
pub fn allocate_zeroed<T: bytemuck::Zeroable>(len: usize) -> Result<Box<[T]>, TtError> {
    bytemuck::allocation::try_zeroed_slice_box(len).map_err(|()| TtError::AllocationFailed {
        bytes: len.saturating_mul(size_of::<T>()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let meminfo = "MemTotal:       32000000 kB\nMemAvailable:   24380104 kB\n";
        assert_eq!(parse_mem_available(meminfo), Some(24380104 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn allocations_are_zeroed() {
        let words = allocate_zeroed::<u64>(1 << 16).expect("512 KiB");
        assert_eq!(words.len(), 1 << 16);
        assert!(words.iter().all(|&w| w == 0));
    }

    #[test]
    fn impossible_allocation_is_an_error() {
        let result = allocate_zeroed::<u64>(usize::MAX / 4);
        assert!(matches!(result, Err(TtError::AllocationFailed { .. })));
    }
}
