//! `manifest.json`: what a plan is (root, depth, split ply, units, shards with their checksums),
//! one sealed JSON line.

use super::checksum::{is_sealed, seal};
use super::error::WorkError;
use super::seal::PlanSeal;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The plan format this version writes and reads; bumped when a file's meaning changes.
pub const FORMAT: u32 = 1;
pub const MANIFEST_FILE: &str = "manifest.json";
/// The `kind` of a unique-positions plan's manifest (a perft plan's has none).
pub const UNIQUE_KIND: &str = "unique";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// The program that split the plan, e.g. `vkperft 0.1.0`.
    pub tool: String,
    pub fen: String,
    pub depth: u32,
    pub split_ply: u32,
    /// Unique positions at the split ply, numbered 0..units.
    pub units: u64,
    /// Paths to the split ply, the sum of the units' multiplicities: perft(split_ply).
    pub paths: String,
    /// The root's legal moves (UCI), in generation order.
    pub root_moves: Vec<String>,
    /// Consecutive ranges of units, in order.
    pub shards: Vec<ShardInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    pub file: String,
    /// The shard holds units `first..first + units`.
    pub first: u64,
    pub units: u64,
    /// CRC-32 of the file's bytes.
    pub crc32: String,
}

impl Manifest {
    /// The manifest's file text: a sealed line.
    pub fn to_text(&self) -> String {
        let object = serde_json::to_string(self).expect("a manifest always serializes");
        format!("{}\n", seal(&object))
    }

    /// Reads and checks the manifest of the plan folder `dir`; with the plan's seal, the
    /// SHA-256 of the file.
    pub fn read(dir: &Path) -> Result<(Manifest, PlanSeal), WorkError> {
        let (path, text) = read_manifest_text(dir)?;
        let manifest = Manifest::parse(&path, text.trim_end_matches('\n'))?;
        Ok((manifest, PlanSeal::of(text.as_bytes())))
    }

    fn parse(path: &Path, line: &str) -> Result<Manifest, WorkError> {
        let value = sealed_manifest_value(path, line)?;
        if value["kind"] == UNIQUE_KIND {
            return Err(WorkError::UniquePlan {
                path: path.parent().unwrap_or(path).to_path_buf(),
            });
        }
        let manifest: Manifest =
            serde_json::from_value(value).map_err(|e| WorkError::malformed(path, e.to_string()))?;
        let mut next = 0;
        for shard in &manifest.shards {
            // A shard is a file of the plan folder: no path may lead out of it.
            let plain = !shard.file.is_empty()
                && shard.file != "."
                && shard.file != ".."
                && !shard.file.contains(['/', '\\', '\0']);
            if !plain {
                return Err(WorkError::malformed(
                    path,
                    format!("shard file {:?} is not a plain file name", shard.file),
                ));
            }
            if shard.first != next {
                return Err(WorkError::malformed(path, "the shards are not consecutive"));
            }
            next += shard.units;
        }
        if manifest.shards.is_empty() || next != manifest.units {
            return Err(WorkError::malformed(
                path,
                format!("{} units, but the shards list {next}", manifest.units),
            ));
        }
        Ok(manifest)
    }
}

/// The path and text of the plan folder `dir`'s `manifest.json` (of either kind).
pub fn read_manifest_text(dir: &Path) -> Result<(PathBuf, String), WorkError> {
    let path = dir.join(MANIFEST_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok((path, text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(WorkError::NotAPlan {
            path: dir.to_path_buf(),
        }),
        Err(e) => Err(WorkError::io(&path, e)),
    }
}

/// The JSON object of the manifest line `line` read from `path`, of this format and with its
/// seal checked, before its fields are read.
pub fn sealed_manifest_value(path: &Path, line: &str) -> Result<serde_json::Value, WorkError> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|_| WorkError::Checksum { path: path.into() })?;
    // The format first: another version's manifest may seal or name things differently.
    if value["format"] != FORMAT {
        return Err(WorkError::OtherVersion {
            path: path.into(),
            found: value["format"].to_string(),
            expected: FORMAT,
        });
    }
    if !is_sealed(line) {
        return Err(WorkError::Checksum { path: path.into() });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            format: FORMAT,
            tool: "vkperft 0.1.0".into(),
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            depth: 4,
            split_ply: 2,
            units: 3,
            paths: "9".into(),
            root_moves: vec!["a1a2".into()],
            shards: vec![ShardInfo {
                file: "shard-0000.jsonl".into(),
                first: 0,
                units: 3,
                crc32: "00000000".into(),
            }],
        }
    }

    #[test]
    fn manifests_round_trip_and_refuse_damage_and_other_formats() {
        let path = Path::new("plan/manifest.json");
        let text = manifest().to_text();
        let line = text.trim_end();
        assert_eq!(Manifest::parse(path, line).ok(), Some(manifest()));
        assert!(matches!(
            Manifest::parse(path, &line.replace("\"depth\":4", "\"depth\":5")),
            Err(WorkError::Checksum { .. })
        ));
        assert!(matches!(
            Manifest::parse(path, &line[..line.len() - 4]),
            Err(WorkError::Checksum { .. })
        ));
        let future = Manifest {
            format: FORMAT + 1,
            ..manifest()
        };
        let error = Manifest::parse(path, future.to_text().trim_end()).err();
        assert!(
            matches!(&error, Some(WorkError::OtherVersion { found, .. }) if *found == "2"),
            "{error:?}"
        );
        let unbalanced = Manifest {
            units: 4,
            ..manifest()
        };
        assert!(matches!(
            Manifest::parse(path, unbalanced.to_text().trim_end()),
            Err(WorkError::Malformed { .. })
        ));
        for file in ["/etc/passwd", "../other/shard.jsonl", "..", "", "a/b.jsonl"] {
            let mut escaping = manifest();
            escaping.shards[0].file = file.into();
            let error = Manifest::parse(path, escaping.to_text().trim_end()).err();
            assert!(
                matches!(&error, Some(WorkError::Malformed { reason, .. }) if reason.contains("not a plain file name")),
                "{file}: {error:?}"
            );
        }
    }
}
