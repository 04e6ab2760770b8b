//! `manifest.json` of a unique-positions plan: the root, the depth, the plies before the last
//! as the split counted them, the files of the ply before the last (the input of every unit),
//! the partitions of the last ply (its units) and their set size, and the shards (consecutive
//! units). One sealed JSON line, as a perft plan's manifest, with `"kind":"unique"`.

use super::super::checksum::seal;
use super::super::error::WorkError;
use super::super::manifest::{read_manifest_text, sealed_manifest_value, UNIQUE_KIND};
use super::super::seal::PlanSeal;
use serde::{Deserialize, Serialize};
use std::path::{Component, Path};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UniqueManifest {
    pub format: u32,
    pub kind: String,
    /// The program that split the plan, e.g. `vkperft 0.1.0`.
    pub tool: String,
    pub fen: String,
    /// The ply whose unique positions the plan counts.
    pub depth: u32,
    /// Plies 1 to depth - 1, as the split counted them.
    pub plies: Vec<PlyLine>,
    /// The positions of ply depth - 1, in hash-range order: paths relative to the plan folder.
    pub parent_files: Vec<ParentFile>,
    /// Partitions of the last ply: unit `i` is hash range `i` of `partitions` equal ones.
    pub partitions: u64,
    /// Set entries a unit's pass holds (24 bytes each).
    pub slots: u64,
    /// Consecutive ranges of units, in order.
    pub shards: Vec<UnitShard>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyLine {
    pub ply: u32,
    pub unique: u64,
    /// perft(ply), a decimal string.
    pub paths: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentFile {
    pub file: String,
    pub bytes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitShard {
    /// The shard holds units `first..first + units`.
    pub first: u64,
    pub units: u64,
}

/// Whether the manifest text `line` (one JSON object) is a unique-positions plan's.
pub fn is_unique_manifest(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line).is_ok_and(|value| value["kind"] == UNIQUE_KIND)
}

impl UniqueManifest {
    /// The manifest's file text: a sealed line.
    pub fn to_text(&self) -> String {
        let object = serde_json::to_string(self).expect("a manifest always serializes");
        format!("{}\n", seal(&object))
    }

    /// The positions of the ply before the last, paths from the root to them.
    pub fn parent(&self) -> &PlyLine {
        self.plies
            .last()
            .expect("a checked manifest has the plies before the last")
    }

    /// Reads and checks the manifest of the plan folder `dir`; with the plan's seal.
    pub fn read(dir: &Path) -> Result<(UniqueManifest, PlanSeal), WorkError> {
        let (path, text) = read_manifest_text(dir)?;
        let manifest = UniqueManifest::parse(&path, text.trim_end_matches('\n'))?;
        Ok((manifest, PlanSeal::of(text.as_bytes())))
    }

    fn parse(path: &Path, line: &str) -> Result<UniqueManifest, WorkError> {
        let value = sealed_manifest_value(path, line)?;
        let manifest: UniqueManifest =
            serde_json::from_value(value).map_err(|e| WorkError::malformed(path, e.to_string()))?;
        manifest
            .check()
            .map_err(|reason| WorkError::malformed(path, reason))?;
        Ok(manifest)
    }

    fn check(&self) -> Result<(), String> {
        if self.kind != UNIQUE_KIND {
            return Err(format!("kind {:?}, not {UNIQUE_KIND:?}", self.kind));
        }
        let plies: Vec<u32> = self.plies.iter().map(|p| p.ply).collect();
        if self.depth < 2 || plies != (1..self.depth).collect::<Vec<_>>() {
            return Err(format!(
                "depth {} needs the counts of plies 1 to {}",
                self.depth,
                self.depth.saturating_sub(1)
            ));
        }
        if self.plies.iter().any(|p| p.paths.parse::<u128>().is_err()) {
            return Err("a ply's paths are not a count".into());
        }
        for parent in &self.parent_files {
            // A file of the plan folder: no path may lead out of it.
            let inside = !parent.file.is_empty()
                && Path::new(&parent.file)
                    .components()
                    .all(|c| matches!(c, Component::Normal(_)));
            if !inside {
                return Err(format!(
                    "{:?} is not a path inside the plan folder",
                    parent.file
                ));
            }
        }
        if self.parent_files.is_empty() || self.partitions == 0 || self.slots == 0 {
            return Err("no files of the ply before, no partitions or no set".into());
        }
        let mut next = 0;
        for shard in &self.shards {
            if shard.first != next {
                return Err("the shards are not consecutive".into());
            }
            next += shard.units;
        }
        if self.shards.is_empty() || next != self.partitions {
            return Err(format!(
                "{} partitions, but the shards list {next} units",
                self.partitions
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::manifest::FORMAT;

    fn manifest() -> UniqueManifest {
        UniqueManifest {
            format: FORMAT,
            kind: UNIQUE_KIND.into(),
            tool: "vkperft 0.1.0".into(),
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            depth: 3,
            plies: vec![
                PlyLine {
                    ply: 1,
                    unique: 3,
                    paths: "3".into(),
                },
                PlyLine {
                    ply: 2,
                    unique: 9,
                    paths: "9".into(),
                },
            ],
            parent_files: vec![ParentFile {
                file: "plies/ply-02/range-x.bin".into(),
                bytes: 100,
            }],
            partitions: 4,
            slots: 4096,
            shards: vec![
                UnitShard { first: 0, units: 2 },
                UnitShard { first: 2, units: 2 },
            ],
        }
    }

    #[test]
    fn manifests_round_trip_and_refuse_damage_and_escaping_files() {
        let path = Path::new("plan/manifest.json");
        let text = manifest().to_text();
        let line = text.trim_end();
        assert!(is_unique_manifest(line));
        assert_eq!(UniqueManifest::parse(path, line).ok(), Some(manifest()));
        assert!(matches!(
            UniqueManifest::parse(path, &line.replace("\"depth\":3", "\"depth\":4")),
            Err(WorkError::Checksum { .. })
        ));
        let uneven = UniqueManifest {
            partitions: 5,
            ..manifest()
        };
        assert!(matches!(
            UniqueManifest::parse(path, uneven.to_text().trim_end()),
            Err(WorkError::Malformed { .. })
        ));
        let short = UniqueManifest {
            depth: 4,
            ..manifest()
        };
        assert!(matches!(
            UniqueManifest::parse(path, short.to_text().trim_end()),
            Err(WorkError::Malformed { .. })
        ));
        for file in ["/etc/passwd", "../other/ply.bin", "plies/../../x", ""] {
            let mut escaping = manifest();
            escaping.parent_files[0].file = file.into();
            let error = UniqueManifest::parse(path, escaping.to_text().trim_end()).err();
            assert!(
                matches!(&error, Some(WorkError::Malformed { reason, .. }) if reason.contains("inside the plan folder")),
                "{file}: {error:?}"
            );
        }
    }
}
