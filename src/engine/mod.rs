//! The engine: one background thread that owns the backends. The GUI and the CLI send it
//! commands and read its events over channels; it never depends on a UI.

pub mod event;
pub mod job;
pub mod runner;
pub mod thread;

pub use event::{EngineError, Event, PerftResult, Progress};
pub use job::{BackendChoice, Job, JobId, MAX_DEPTH};
pub use thread::{Command, Engine};
