//! `vkperft work verify-certificate` on a unique-positions plan's certificate: what the
//! certificate claims is checked against the plan and its journals as they are now (seal,
//! root, plies, every journal's SHA-256, the merge of the units and its paths check); the
//! recount of sampled units is [`count_unit`](super::run::count_unit)'s, done by the caller.

use super::super::error::WorkError;
use super::certificate::KIND;
use super::folder::UniquePlan;
use super::journal::UniqueScan;
use super::merge::{merge_unique, UniqueMerged};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// What a unique-positions certificate claims, as `work merge --certificate` wrote it.
#[derive(Clone, Debug, Deserialize)]
pub struct UniqueCertificateClaims {
    pub certificate: String,
    pub format: u32,
    pub position: String,
    pub depth: u32,
    pub unique: String,
    pub paths: String,
    pub plies: Vec<ClaimedPly>,
    pub plan: ClaimedPlan,
    pub journals: Vec<ClaimedJournal>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ClaimedPly {
    pub ply: u32,
    pub unique: String,
    pub paths: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ClaimedPlan {
    pub folder: String,
    pub seal: String,
    pub partitions: u64,
    pub shards: usize,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ClaimedJournal {
    pub file: String,
    pub sha256: String,
}

/// Whether the file at `path` is a unique-positions certificate (JSON whose `certificate`
/// field names that kind); anything else is left to the perft certificate's reader.
pub fn is_unique_certificate(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|value| value["certificate"] == KIND)
}

impl UniqueCertificateClaims {
    pub fn read(path: &Path) -> Result<UniqueCertificateClaims, WorkError> {
        let text = std::fs::read_to_string(path).map_err(|e| WorkError::io(path, e))?;
        let refuse = |reason: String| WorkError::NotACertificate {
            path: path.to_path_buf(),
            reason,
        };
        let claims: UniqueCertificateClaims =
            serde_json::from_str(&text).map_err(|e| refuse(e.to_string()))?;
        if claims.certificate != KIND {
            return Err(refuse(format!("its kind is {:?}", claims.certificate)));
        }
        if claims.format != super::certificate::FORMAT {
            return Err(refuse(format!(
                "format {}; this version reads format {}",
                claims.format,
                super::certificate::FORMAT
            )));
        }
        Ok(claims)
    }

    /// The plan folder the certificate names.
    pub fn plan_folder(&self) -> PathBuf {
        PathBuf::from(&self.plan.folder)
    }
}

/// What the check of a certificate against its plan found.
#[derive(Debug, Default)]
pub struct UniqueCertificateCheck {
    /// Claims that do not hold, one sentence each.
    pub failures: Vec<String>,
    /// Journal files the certificate does not list (written after it): read, and their
    /// results must agree.
    pub unlisted: Vec<String>,
}

/// Checks `claims` against `plan` and `scan`, its journals as they are now.
pub fn check_unique_certificate(
    plan: &UniquePlan,
    scan: &UniqueScan,
    claims: &UniqueCertificateClaims,
) -> UniqueCertificateCheck {
    let mut check = UniqueCertificateCheck::default();
    let failures = &mut check.failures;
    let manifest = &plan.manifest;
    let seal = plan.seal.to_string();
    if claims.plan.seal != seal {
        failures.push(format!(
            "the plan's seal is {seal}, the certificate's {}: it certifies another plan, or the manifest changed",
            claims.plan.seal
        ));
    }
    if claims.position != manifest.fen || claims.depth != manifest.depth {
        failures.push(format!(
            "the certificate is of ply {} of {}, the plan of ply {} of {}",
            claims.depth, claims.position, manifest.depth, manifest.fen
        ));
    }
    if claims.plan.partitions != manifest.partitions || claims.plan.shards != plan.shard_count() {
        failures.push(format!(
            "the certificate names {} partitions in {} shards, the plan has {} in {}",
            claims.plan.partitions,
            claims.plan.shards,
            manifest.partitions,
            plan.shard_count()
        ));
    }
    let planned: Vec<(u32, String, String)> = manifest
        .plies
        .iter()
        .map(|p| (p.ply, p.unique.to_string(), p.paths.clone()))
        .collect();
    let claimed_before: Vec<(u32, String, String)> = claims
        .plies
        .iter()
        .filter(|p| p.ply < claims.depth)
        .map(|p| (p.ply, p.unique.clone(), p.paths.clone()))
        .collect();
    if claimed_before != planned {
        failures.push(
            "the plies before the last differ from those the plan's split counted".to_string(),
        );
    }
    let claimed_last = claims.plies.iter().find(|p| p.ply == claims.depth);
    if claimed_last.is_none_or(|p| p.unique != claims.unique || p.paths != claims.paths) {
        failures.push(format!(
            "the certificate's ply {} does not repeat its count",
            claims.depth
        ));
    }
    for journal in &claims.journals {
        match scan.files.iter().find(|(file, _)| *file == journal.file) {
            None => failures.push(format!(
                "journal/{} is gone: the results it held are not here",
                journal.file
            )),
            Some((_, digest)) if digest.to_string() != journal.sha256 => failures.push(format!(
                "journal/{} changed since the certificate: SHA-256 {digest}, certified {}",
                journal.file, journal.sha256
            )),
            Some(_) => {}
        }
    }
    check.unlisted = scan
        .files
        .iter()
        .filter(|(file, _)| !claims.journals.iter().any(|j| j.file == *file))
        .map(|(file, _)| file.clone())
        .collect();
    match merge_unique(plan, scan) {
        UniqueMerged::Total(total) => {
            let (unique, paths) = (total.unique.to_string(), total.paths.to_string());
            if unique != claims.unique || paths != claims.paths {
                failures.push(format!(
                    "the journals merge to {unique} positions and {paths} paths, the certificate says {} and {}",
                    claims.unique, claims.paths
                ));
            }
        }
        UniqueMerged::Missing(units) => failures.push(format!(
            "{} units have no result in the journals (unit {} first)",
            units.len(),
            units[0]
        )),
        UniqueMerged::Disagreeing(units) => failures.push(format!(
            "{} units have results that disagree (unit {} first)",
            units.len(),
            units[0]
        )),
        UniqueMerged::PathsMismatch {
            partitions,
            children,
        } => failures.push(format!(
            "the partitions hold {partitions} paths, the children of the ply before {children:?}"
        )),
    }
    check
}
