//! The engine: one background thread that runs jobs on backends. Its clients (the window, a
//! suite's run, the CLI) send it commands and read their jobs' events over channels; it never
//! depends on a UI.
//!
//! - [`job`]: what to compute, built once from what a person set ([`JobSpec`]);
//! - [`provider`]: who hands a job its backend ([`BackendProvider`]); what a backend offers is
//!   the contract below the engine ([`crate::backend`]);
//! - [`backends`]: this machine's backends and the rule of `auto`;
//! - [`runner`]: one job on one backend, start to final event;
//! - [`thread`]: the engine thread and its clients ([`Engine`] handles: the window and its
//!   suite share one thread, each receiving the events of its own jobs);
//! - [`dispatch`]: the thread's loop: every client's jobs one at a time, each job's events
//!   routed ([`route`]) to the client that sent it;
//! - [`blocking`]: a job run to its end on the caller's thread;
//! - [`event`], [`result_text`]: what comes back, and how results read as text;
//! - [`time_left`]: the time left of a run from its progress reports, with the table's final
//!   stores forecast by [`table_forecast`].

pub mod backends;
pub mod blocking;
pub mod dispatch;
pub mod event;
pub mod job;
pub mod provider;
pub mod result_text;
pub mod route;
pub mod runner;
pub mod table_forecast;
pub mod thread;
pub mod time_left;

pub use backends::Backends;
pub use blocking::{BlockingEnd, BlockingRun};
pub use event::{move_stats_json, EngineError, Event, PerftResult, Progress};
pub use job::{
    all_cores, mib_to_bytes, BackendChoice, Job, JobId, JobSpec, JobSpecError, DEFAULT_TT_MB,
};
pub use provider::{BackendProvider, Resolved};
pub use result_text::move_stats_text;
pub use route::Waker;
pub use thread::Engine;
pub use time_left::{ProgressPoint, TimeLeft};
