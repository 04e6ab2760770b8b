//! A plan's certificate: what `vkperft work merge --certificate` writes, one JSON document a
//! reader can check against the plan folder (`vkperft work verify-certificate`): the position,
//! depth, total and divide; the plan's seal; the trust the merge established (units per trust
//! level: what agreement across Zobrist seeds shows, never a record's own claim), the records
//! per mode, seed and device as they declare them, the agreement across seeds; the summed risk;
//! the program (version and git commit); and the SHA-256 of every journal file read.

use super::error::WorkError;
use super::folder::PlanFolder;
use super::journal::JournalScan;
use super::merge::Total;
use crate::engine::move_stats_json;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;

/// The certificate format this version writes and reads. Format 1 counted a record that
/// declared an exact mode as exact.
pub const CERTIFICATE_FORMAT: u32 = 2;
/// How a merge establishes trust, as the certificate says it.
const TRUST_BASIS: &str = "agreement of the journals' results across Zobrist seeds, checked by the merge; the modes in computations are as the records declare them; only a recomputation (work verify-certificate) establishes exact";
/// What the `certificate` field of the document says.
const KIND: &str = "vkperft plan certificate";
/// The version of vkperft, and the git commit it was built from (`unknown` outside a git
/// checkout).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const COMMIT: &str = env!("VKPERFT_GIT_COMMIT");

/// The certificate of `total`, merged from `scan` of `plan`.
pub fn certificate(plan: &PlanFolder, total: &Total, scan: &JournalScan) -> serde_json::Value {
    let manifest = &plan.manifest;
    let folder = std::fs::canonicalize(&plan.dir).unwrap_or_else(|_| plan.dir.clone());
    let mut document = json!({
        "certificate": KIND,
        "format": CERTIFICATE_FORMAT,
        "tool": {"name": "vkperft", "version": VERSION, "commit": COMMIT},
        "position": manifest.fen,
        "depth": manifest.depth,
        "total": total.nodes.to_string(),
        "divide": total
            .divide
            .iter()
            .map(|(mv, nodes)| json!({"move": mv, "nodes": nodes.to_string()}))
            .collect::<Vec<_>>(),
        "plan": {
            "folder": folder.to_string_lossy(),
            "seal": plan.seal.to_string(),
            "split_ply": manifest.split_ply,
            "units": manifest.units,
            "paths": manifest.paths,
        },
        "trust": {
            "level": total.trust.name(),
            "basis": TRUST_BASIS,
            "units": total
                .trust_counts()
                .iter()
                .map(|(trust, units)| json!({"level": trust.name(), "units": units}))
                .collect::<Vec<_>>(),
        },
        "computations": total
            .computations
            .iter()
            .map(|c| json!({
                "mode": c.mode,
                "seed": format!("{:#x}", c.seed),
                "backend": c.device.kind().name(),
                "device": c.device.to_string(),
                "records": c.records,
            }))
            .collect::<Vec<_>>(),
        "agreement": {
            "units_computed_more_than_once": total.repeated_units,
            "units_with_independent_seeds": total.independent_units,
            "disagreeing_units": 0,
        },
        "risk": total.risk.to_json(),
        "journals": scan
            .files
            .iter()
            .map(|(file, digest)| json!({"file": file, "sha256": digest.to_string()}))
            .collect::<Vec<_>>(),
    });
    // A plan run with --stats certifies its move-type statistics too.
    if let Some(stats) = &total.move_stats {
        document["stats"] = move_stats_json(stats);
    }
    document
}

/// What a certificate claims that a reader checks.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CertificateClaims {
    pub certificate: String,
    pub format: u32,
    pub position: String,
    pub depth: u32,
    pub total: String,
    pub divide: Vec<DivideClaim>,
    pub plan: PlanClaim,
    pub trust: TrustClaim,
    pub computations: Vec<ComputationClaim>,
    pub journals: Vec<JournalClaim>,
    /// The move-type statistics, by name, of a plan run with `--stats`.
    #[serde(default)]
    pub stats: Option<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DivideClaim {
    #[serde(rename = "move")]
    pub mv: String,
    pub nodes: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PlanClaim {
    pub folder: String,
    pub seal: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TrustClaim {
    pub level: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ComputationClaim {
    pub seed: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JournalClaim {
    pub file: String,
    pub sha256: String,
}

impl CertificateClaims {
    /// Reads the certificate `path`.
    pub fn read(path: &Path) -> Result<CertificateClaims, WorkError> {
        let text = std::fs::read_to_string(path).map_err(|e| WorkError::io(path, e))?;
        let refuse = |reason: String| WorkError::NotACertificate {
            path: path.to_path_buf(),
            reason,
        };
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| refuse(e.to_string()))?;
        if value["certificate"] != KIND {
            return Err(refuse(format!("its kind is {}", value["certificate"])));
        }
        let claims: CertificateClaims =
            serde_json::from_value(value).map_err(|e| refuse(e.to_string()))?;
        if claims.certificate != KIND {
            return Err(refuse(format!("its kind is {:?}", claims.certificate)));
        }
        if claims.format != CERTIFICATE_FORMAT {
            return Err(refuse(format!(
                "format {}; this version reads format {CERTIFICATE_FORMAT}",
                claims.format
            )));
        }
        Ok(claims)
    }
}
