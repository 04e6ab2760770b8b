//! A unique-positions plan's certificate: what `vkperft work merge --certificate` writes for
//! it, one JSON document: the position, the ply and its count; every ply's count and paths;
//! the check that the partitions cover the ply exactly once (their paths add up to perft of the
//! ply, counted over every child by each unit); the trust (exact keys: no hash risk); the
//! plan's seal, partitions and shards; the program; and the SHA-256 of every journal file read.

use super::super::certificate::{COMMIT, VERSION};
use super::folder::UniquePlan;
use super::journal::UniqueScan;
use super::merge::UniqueTotal;
use serde_json::json;

/// What the `certificate` field of the document says.
pub(super) const KIND: &str = "vkperft unique-positions plan certificate";
/// The certificate format this version writes.
pub(super) const FORMAT: u32 = 1;
const TRUST_BASIS: &str = "exact 24-byte keys (placement, side to move, castling rights, en passant only where a capture is legal): positions are merged only when equal, so no hash collision can change a count; the partitions are hash ranges of those keys, and their paths adding up to perft of the ply shows that they cover it exactly once";

/// The certificate of `total`, merged from `scan` of `plan`.
pub fn unique_certificate(
    plan: &UniquePlan,
    total: &UniqueTotal,
    scan: &UniqueScan,
) -> serde_json::Value {
    let manifest = &plan.manifest;
    let folder = std::fs::canonicalize(&plan.dir).unwrap_or_else(|_| plan.dir.clone());
    let mut plies: Vec<serde_json::Value> = manifest
        .plies
        .iter()
        .map(|p| json!({"ply": p.ply, "unique": p.unique.to_string(), "paths": p.paths}))
        .collect();
    plies.push(json!({
        "ply": manifest.depth,
        "unique": total.unique.to_string(),
        "paths": total.paths.to_string(),
    }));
    json!({
        "certificate": KIND,
        "format": FORMAT,
        "tool": {"name": "vkperft", "version": VERSION, "commit": COMMIT},
        "position": manifest.fen,
        "depth": manifest.depth,
        "unique": total.unique.to_string(),
        "paths": total.paths.to_string(),
        "plies": plies,
        "paths_check": {
            "partitions": total.paths.to_string(),
            "children": total.paths.to_string(),
            "holds": true,
        },
        "trust": {"level": "exact", "basis": TRUST_BASIS},
        "plan": {
            "folder": folder.to_string_lossy(),
            "seal": plan.seal.to_string(),
            "partitions": manifest.partitions,
            "shards": manifest.shards.len(),
        },
        "agreement": {
            "units_computed_more_than_once": total.repeated_units,
            "disagreeing_units": 0,
        },
        "journals": scan
            .files
            .iter()
            .map(|(file, digest)| json!({"file": file, "sha256": digest.to_string()}))
            .collect::<Vec<_>>(),
    })
}
