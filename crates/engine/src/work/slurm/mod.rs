//! A plan on a Slurm cluster: the shards that are not complete as one job array (a task per
//! shard, each a `vkperft work run --shard-from-env SLURM_ARRAY_TASK_ID`), and a merge job
//! that runs once the array has ended, however its tasks ended. The batch scripts go into the
//! plan folder (`slurm/`), next to the tasks' logs, so what was submitted can be read and
//! submitted again by hand; the ids of the last submission's jobs go there too, and no new one
//! is made while they are queued.
//!
//! Slurm may start a task twice (a restarted controller) or kill one (preemption, `scancel`, a
//! failed node). Both are harmless by the journal's design: each process appends to a file of
//! its own, skips units already journaled when it starts, and loses at most the unit in
//! flight; merge counts each unit once. What a killed task left undone, the next
//! `vkperft work slurm` submits again.

mod queue;
mod script;
mod submissions;

pub use queue::{queue_state, submit, QueueState};
pub use script::{array_spec, shell_quote, slurm_dir, SlurmJobs, SlurmResources};
pub use submissions::{check_none_queued, record_submission};
