//! Whether the table's memory asks Linux for transparent huge pages, or what
//! `VKPERFT_TT_HUGE_PAGES` (`on`, `off` or `auto`) says instead: a measurement knob, since
//! which is faster depends on the machine. Huge pages spare a large table's random probes
//! most TLB misses; but the kernel zeroes each 2 MiB page on its first write, and on some
//! virtual machines that first write costs far more than the small pages' would.

use std::sync::OnceLock;

/// The environment variable that overrides [`DEFAULT_HUGE_PAGES`].
pub const HUGE_PAGES_VARIABLE: &str = "VKPERFT_TT_HUGE_PAGES";

/// Whether tables ask for huge pages unless told otherwise.
const DEFAULT_HUGE_PAGES: bool = true;

/// What [`HUGE_PAGES_VARIABLE`] asks for: `None` when it is unset or `auto`, an error naming
/// the values it takes when it is something else.
pub fn huge_pages_from_env() -> Result<Option<bool>, String> {
    let Some(value) = std::env::var_os(HUGE_PAGES_VARIABLE) else {
        return Ok(None);
    };
    match value.to_str() {
        Some("auto") => Ok(None),
        Some("on") => Ok(Some(true)),
        Some("off") => Ok(Some(false)),
        _ => Err(format!(
            "{HUGE_PAGES_VARIABLE}={}: expected on, off or auto",
            value.to_string_lossy()
        )),
    }
}

/// Whether tables ask for huge pages (an invalid value of the variable is ignored here: the
/// command line refuses it before it runs anything).
pub fn huge_pages_wanted() -> bool {
    static WANTED: OnceLock<bool> = OnceLock::new();
    *WANTED.get_or_init(|| {
        huge_pages_from_env()
            .ok()
            .flatten()
            .unwrap_or(DEFAULT_HUGE_PAGES)
    })
}
