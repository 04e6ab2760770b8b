//! The user's engine's processes, so that another thread (the window's Cancel) or a signal
//! handler (Ctrl-C in `vkperft hunt`) can kill them while a request waits.
//!
//! Every engine runs in a process group of its own, killed whole: a command is often a shell
//! wrapper (or an environment prefix such as `BUG=ep ./engine`) around the engine, and
//! killing the shell alone would leave the engine counting and holding its pipes open.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// The engine of one walk or comparison: its live process group, and what it was asked last.
#[derive(Default)]
pub struct EngineProcess {
    /// The process group of the engine, 0 while none runs.
    group: AtomicI32,
    /// Set by [`EngineProcess::kill`]: later starts are killed at once.
    killed: AtomicBool,
    /// The request the engine is answering, for the message after a kill.
    waiting: Mutex<String>,
}

impl EngineProcess {
    pub fn new() -> Arc<EngineProcess> {
        Arc::new(EngineProcess::default())
    }

    /// Kills the engine's process group and every one started after this; returns the
    /// request it was answering (empty when it was not asked anything yet).
    pub fn kill(&self) -> String {
        self.killed.store(true, Ordering::SeqCst);
        self.kill_group();
        self.waiting
            .lock()
            .map(|waiting| waiting.clone())
            .unwrap_or_default()
    }

    /// Whether [`EngineProcess::kill`] was called.
    pub fn was_killed(&self) -> bool {
        self.killed.load(Ordering::SeqCst)
    }

    /// Only sends a signal: safe from a signal handler.
    fn kill_group(&self) {
        let group = self.group.load(Ordering::SeqCst);
        if group != 0 {
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
    }

    /// Records the group led by `leader` (a child spawned with `process_group(0)`) until the
    /// returned guard drops, which kills what is left of it.
    pub(super) fn started(self: &Arc<Self>, leader: u32) -> GroupGuard {
        // A process id fits in an i32 (pid_t).
        let group = leader as i32;
        self.group.store(group, Ordering::SeqCst);
        if self.was_killed() {
            self.kill_group();
        }
        GroupGuard {
            process: self.clone(),
            group,
        }
    }

    /// Records the request the engine is answering now.
    pub(super) fn asked(&self, request: &str) {
        if let Ok(mut waiting) = self.waiting.lock() {
            request.clone_into(&mut waiting);
        }
    }
}

/// A live process group of an [`EngineProcess`]; dropping it kills the group.
pub(super) struct GroupGuard {
    process: Arc<EngineProcess>,
    group: i32,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        let _ =
            self.process
                .group
                .compare_exchange(self.group, 0, Ordering::SeqCst, Ordering::SeqCst);
        let _ = killpg(Pid::from_raw(self.group), Signal::SIGKILL);
    }
}

/// The engine `vkperft hunt` opens with [`super::open_engine`].
static COMMAND_LINE_ENGINE: LazyLock<Arc<EngineProcess>> = LazyLock::new(EngineProcess::new);

pub(super) fn command_line_engine() -> Arc<EngineProcess> {
    COMMAND_LINE_ENGINE.clone()
}

/// Kills the engine `vkperft hunt` is asking, with every process it started; for its Ctrl-C
/// handler (running apart from the terminal's group, the engine does not see Ctrl-C).
pub fn kill_running_engine() {
    COMMAND_LINE_ENGINE.kill_group();
}
