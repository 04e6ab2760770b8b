//! Numbers and durations as the panels show them.

use std::time::Duration;

pub use crate::count::thousands;

/// A node rate rounded to whole nodes per second, with separators.
pub fn rate(nodes_per_second: f64) -> String {
    if nodes_per_second.is_finite() && nodes_per_second > 0.0 {
        thousands(nodes_per_second.round() as u128)
    } else {
        "0".to_string()
    }
}

/// `0.123 s`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
pub fn duration(d: Duration) -> String {
    let seconds = d.as_secs_f64();
    if seconds < 10.0 {
        format!("{seconds:.3} s")
    } else if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if seconds < 3600.0 {
        let whole = d.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        let whole = d.as_secs();
        format!("{} h {:02} min", whole / 3600, (whole % 3600) / 60)
    }
}

/// A probability or an expectation that may be tiny: `0`, `1.23e-9`, `0.42`.
pub fn small(value: f64) -> String {
    if value == 0.0 {
        "0".to_string()
    } else if value >= 0.01 {
        format!("{value:.3}")
    } else {
        format!("{value:.2e}")
    }
}

/// `512 KiB`, `16 MiB`, `1.5 GiB`.
pub fn bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    if value >= KIB * KIB * KIB {
        format!("{:.1} GiB", value / (KIB * KIB * KIB))
    } else if value >= KIB * KIB {
        format!("{:.0} MiB", value / (KIB * KIB))
    } else {
        format!("{:.0} KiB", value / KIB)
    }
}

pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_and_durations() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(8902), "8,902");
        assert_eq!(thousands(119060324), "119,060,324");
        assert_eq!(rate(1234.4), "1,234");
        assert_eq!(duration(Duration::from_millis(1500)), "1.500 s");
        assert_eq!(duration(Duration::from_secs(125)), "2 min 05 s");
        assert_eq!(small(0.0), "0");
        assert_eq!(small(1.5e-12), "1.50e-12");
        assert_eq!(bytes(16 << 20), "16 MiB");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
    }
}
