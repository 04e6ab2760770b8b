//! The engine: one background thread that runs jobs on backends. The GUI and the CLI send it
//! commands and read its events over channels; it never depends on a UI.
//!
//! - [`job`]: what to compute, built once from what a person set ([`JobSpec`]);
//! - [`backend`]: what a backend offers ([`Backend`]) and who hands it out;
//! - [`backends`]: this machine's backends and the rule of `auto`;
//! - [`runner`]: one job on one backend, start to final event;
//! - [`thread`]: the engine thread and its channels;
//! - [`event`], [`result_text`]: what comes back, and how results read as text.

pub mod backend;
pub mod backends;
pub mod event;
pub mod job;
pub mod result_text;
pub mod runner;
pub mod thread;

pub use backend::{Backend, BackendProvider, Resolved, RunError, RunOutcome};
pub use backends::Backends;
pub use event::{EngineError, Event, PerftResult, Progress};
pub use job::{
    all_cores, mib_to_bytes, parse_seed, BackendChoice, Job, JobId, JobSpec, JobSpecError,
    DEFAULT_TT_MB, MAX_DEPTH,
};
pub use thread::{Command, Engine};
