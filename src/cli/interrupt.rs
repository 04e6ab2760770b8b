//! Ctrl-C (SIGINT), and SIGTERM and SIGHUP alike (`timeout`, CI runners, Slurm, systemd and a
//! closed terminal send those), in the commands that run jobs or hold scratch files: `perft`,
//! `perftree`, `bench`, `suite`, `hunt`, `unique`, `work run`, `work split` and `work
//! verify-certificate`.
//!
//! The default action of these signals ends the process wherever it stands: a Vulkan device could be
//! mid-submission and would never be destroyed, and a peer program of `bench` could go on
//! counting on its own. So these commands install a handler that only raises a flag. Code that
//! waits polls it every [`POLL`]: [`Runner::run`](super::perft::Runner::run) then cancels the
//! running job through the engine (the CPU backend stops inside its search, the Vulkan backend
//! between submissions) and waits for the job's `Cancelled` event, and the peer is killed. The
//! command then returns [`CliError::Interrupted`](super::error::CliError::Interrupted), which
//! prints no total and exits with
//! [`INTERRUPTED_EXIT_CODE`]; the engine and its backends drop on the way out
//! as after any other run, so the GPU is idle and the device destroyed in order. `unique` and
//! `work split` stop their expansion, whose scratch folder then removes itself (a split also
//! removes the files it wrote). A second signal, for a run that does not stop, ends the process
//! at once with the same code.
//!
//! `hunt` counts on the CPU only and has nothing to tear down but the engine under test; a
//! script engine runs in a process group of its own and does not see the terminal's Ctrl-C, so
//! `hunt`'s handler ([`install_for_hunt`]) kills the script under way and exits at once.
//!
//! The GUI keeps the default: its window has a Cancel button.

use super::error::INTERRUPTED_EXIT_CODE;
use super::output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often code that waits looks at the flag: well within the 0.5 s an interrupted command
/// may take to end.
pub const POLL: Duration = Duration::from_millis(20);

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler. Without it (it cannot be installed) Ctrl-C keeps its default effect
/// of ending the process at once, which a warning says.
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            output::write_stderr("interrupted again: exiting at once\n");
            std::process::exit(INTERRUPTED_EXIT_CODE.into());
        }
    });
    if let Err(err) = installed {
        output::write_stderr(&format!(
            "warning: no Ctrl-C handler ({err}); Ctrl-C will end runs abruptly\n"
        ));
    }
}

/// Installs `hunt`'s handler: the engine under way is killed with everything it started,
/// and the process ends with [`INTERRUPTED_EXIT_CODE`]. Without it, Ctrl-C ends the process alone and the
/// engine keeps running.
pub fn install_for_hunt() {
    let installed = ctrlc::set_handler(|| {
        vkperft::hunt::kill_running_engine();
        output::write_stderr("interrupted: the walk stopped before a finding\n");
        std::process::exit(INTERRUPTED_EXIT_CODE.into());
    });
    if let Err(err) = installed {
        output::write_stderr(&format!(
            "warning: no Ctrl-C handler ({err}); Ctrl-C will leave a running engine behind\n"
        ));
    }
}

/// Whether Ctrl-C has been pressed (or SIGTERM or SIGHUP received) since [`install`].
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
