//! Plans of unique positions: the partitions of one ply (OEIS A083276 for the start
//! position) as the units of a work plan. The split counts the plies before and keeps the last
//! of them in the plan folder; each unit counts one hash range of the plan's ply from those
//! files; `run`, `status`, `merge` and `slurm` take these plans as they take perft plans, with
//! the same journal (a file per process, a synced sealed line per unit). The merge sums the
//! units' counts and checks that their paths add up to perft of the ply.

mod certificate;
mod folder;
mod journal;
mod manifest;
mod merge;
mod record;
mod run;
mod split;
mod status;
mod verify;

pub use certificate::unique_certificate;
pub use folder::{is_unique_plan, UniquePlan};
pub use journal::{read_unique_journals, UniqueScan};
pub use manifest::UniqueManifest;
pub use merge::{merge_unique, unique_by_unit, UniqueMerged, UniqueTotal};
pub use record::UniqueRecord;
pub use run::{count_unit, run_unique_units, UniqueRunProgress, UniqueRunReport};
pub use split::{split_unique, UniqueSplitRequest};
pub use status::{incomplete_unique_shards, UniqueStatus};
pub use verify::{
    check_unique_certificate, is_unique_certificate, UniqueCertificateCheck,
    UniqueCertificateClaims,
};
