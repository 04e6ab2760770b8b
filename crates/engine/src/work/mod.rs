//! Long runs as work units. A plan folder holds the unique positions at a split ply (the
//! units, each with its paths from the root) in shard files; `run` computes units and journals
//! each result durably; `status`, `merge` and `compare` read the journals. The total is the sum
//! of paths x count over the units, in 128 bits, only when every unit has a result and the
//! results of each unit agree. Every record carries the plan's seal, how far it is trusted
//! (mode, verifier width, Zobrist seed) and its table statistics; `merge` states the total's
//! trust and risk and writes a certificate that `verify-certificate` checks. `slurm` hands a
//! plan's incomplete shards to a Slurm cluster. A plan of unique positions
//! ([`unique_plan`]) has the partitions of one ply as its units.

mod certificate;
mod checksum;
mod error;
mod folder;
mod journal;
mod manifest;
mod merge;
mod plan_check;
mod record;
mod risk;
mod run;
mod seal;
mod slurm;
mod split;
mod status;
mod trust;
mod unique_plan;
mod unit;
mod verify;

pub use certificate::{certificate, CertificateClaims, COMMIT, VERSION};
pub use error::WorkError;
pub use folder::{PlanFolder, ShardUnits};
pub use journal::{read_journals, JournalScan};
pub use manifest::{Manifest, ShardInfo};
pub use merge::{compare, merge, Comparison, Computation, Merged, Total};
pub use plan_check::{check_paths, rederive, PlanFault, Rederivation};
pub use record::{JournalRecord, TableStats, RECORD_FORMAT};
pub use risk::{ModeRisk, PlanRisk};
pub use run::{
    parse_shard_range, parse_shard_variable, run_units, RunProgress, RunReport, UnitOutcome,
};
pub use seal::{PlanSeal, Sha256Digest};
pub use slurm::{
    array_spec, check_none_queued, queue_state, record_submission, shell_quote, slurm_dir, submit,
    QueueState, SlurmJobs, SlurmResources,
};
pub use split::{split, SplitRequest};
pub use status::{duration_text, incomplete_shards, Status};
pub use trust::{Method, Requirement, Trust};
pub use unique_plan::{
    check_unique_certificate, count_unit, incomplete_unique_shards, is_unique_certificate,
    is_unique_plan, merge_unique, read_unique_journals, run_unique_units, split_unique,
    unique_by_unit, unique_certificate, UniqueCertificateCheck, UniqueCertificateClaims,
    UniqueManifest, UniqueMerged, UniquePlan, UniqueRecord, UniqueRunProgress, UniqueRunReport,
    UniqueScan, UniqueSplitRequest, UniqueStatus, UniqueTotal,
};
pub use unit::Unit;
pub use verify::{check_certificate, fresh_seed, miss_chance, sample_units, CertificateCheck};
