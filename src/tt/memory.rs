//! The memory the machine has for a table: a budget it cannot meet is an error for the user,
//! never an abort or a later kill by the OOM killer.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let meminfo = "MemTotal:       32000000 kB\nMemAvailable:   24380104 kB\n";
        assert_eq!(parse_mem_available(meminfo), Some(24380104 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }
}
