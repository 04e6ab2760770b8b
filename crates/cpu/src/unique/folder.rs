//! The folder of an expansion: its plies, each as hash ranges that are done. A range is done
//! when its counts file is there (written aside, made durable, renamed after the positions
//! file, if any): so a run killed at any point loses at most the ranges it was computing, and
//! the next run with the same folder fills only the ranges missing. A folder of its own under
//! the system's temporary folder is removed when the expansion ends, however it ends; one the
//! user names is kept.

use super::error::UniqueError;
use super::partition::HashRange;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

const RUN_FILE: &str = "run.json";
/// 2: partitions by the placement hash (1 hashed the whole NybbleBoard).
const FORMAT: u32 = 2;

/// What a folder's plies are of: another root or option makes other plies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    pub format: u32,
    pub fen: String,
    pub by_root_move: bool,
}

impl RunIdentity {
    pub fn new(fen: String, by_root_move: bool) -> RunIdentity {
        RunIdentity {
            format: FORMAT,
            fen,
            by_root_move,
        }
    }
}

/// The counts of a done range, as its counts file holds them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeCounts {
    pub unique: u64,
    /// Entries: more than positions where paths are kept per root move.
    pub entries: u64,
    /// Paths to the range's positions: the sum of their parents' paths.
    #[serde(with = "decimal")]
    pub paths: u128,
    /// Bytes of the range's positions file (0 where only counted).
    pub bytes: u64,
    /// Whether the positions file is there.
    pub kept: bool,
    /// Passes over the previous ply this range took (more than one where it split).
    pub passes: u32,
    pub seconds: f64,
}

mod decimal {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&value.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

pub struct RunFolder {
    dir: PathBuf,
    /// Removed when dropped.
    scratch: bool,
}

impl RunFolder {
    /// A new folder under `parent`, named after this process and the time, removed when the
    /// expansion ends.
    pub fn scratch(parent: &Path, identity: &RunIdentity) -> Result<RunFolder, UniqueError> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos());
        let dir = parent.join(format!(".vkperft-unique-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| UniqueError::io(&dir, e))?;
        let folder = RunFolder { dir, scratch: true };
        folder.write_identity(identity)?;
        Ok(folder)
    }

    /// The kept folder `dir`: created, or resumed when it holds plies of `identity`.
    pub fn kept(dir: &Path, identity: &RunIdentity) -> Result<RunFolder, UniqueError> {
        std::fs::create_dir_all(dir).map_err(|e| UniqueError::io(dir, e))?;
        let folder = RunFolder {
            dir: dir.to_path_buf(),
            scratch: false,
        };
        let run_file = dir.join(RUN_FILE);
        match std::fs::read_to_string(&run_file) {
            Ok(text) => {
                let found: Option<RunIdentity> = serde_json::from_str(&text).ok();
                if found.as_ref() != Some(identity) {
                    return Err(UniqueError::OtherRun { path: dir.into() });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let empty = std::fs::read_dir(dir)
                    .map_err(|e| UniqueError::io(dir, e))?
                    .next()
                    .is_none();
                if !empty {
                    return Err(UniqueError::OtherRun { path: dir.into() });
                }
                folder.write_identity(identity)?;
            }
            Err(e) => return Err(UniqueError::io(&run_file, e)),
        }
        Ok(folder)
    }

    fn write_identity(&self, identity: &RunIdentity) -> Result<(), UniqueError> {
        let text = serde_json::to_string(identity).expect("an identity always serializes");
        write_durably(&self.dir.join(RUN_FILE), text.as_bytes())
    }

    pub fn ply_dir(&self, ply: u32) -> PathBuf {
        self.dir.join(format!("ply-{ply:02}"))
    }

    /// Where the positions of `range` of `ply` go.
    pub fn positions_file(&self, ply: u32, range: HashRange) -> PathBuf {
        self.ply_dir(ply)
            .join(format!("range-{}.bin", range.name()))
    }

    fn counts_file(&self, ply: u32, range: HashRange) -> PathBuf {
        self.ply_dir(ply)
            .join(format!("range-{}.json", range.name()))
    }

    /// The done ranges of `ply`, sorted, with their counts; half-written files of an
    /// interrupted range are removed.
    pub fn done_ranges(&self, ply: u32) -> Result<Vec<(HashRange, RangeCounts)>, UniqueError> {
        let dir = self.ply_dir(ply);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(UniqueError::io(&dir, e)),
        };
        let mut done = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| UniqueError::io(&dir, e))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".tmp") {
                std::fs::remove_file(&path).map_err(|e| UniqueError::io(&path, e))?;
                continue;
            }
            let Some(range) = name
                .strip_prefix("range-")
                .and_then(|n| n.strip_suffix(".json"))
                .and_then(HashRange::parse_name)
            else {
                continue;
            };
            let text = std::fs::read_to_string(&path).map_err(|e| UniqueError::io(&path, e))?;
            let counts: RangeCounts = serde_json::from_str(&text)
                .map_err(|e| UniqueError::corrupt(&path, e.to_string()))?;
            if counts.kept && !self.positions_file(ply, range).exists() {
                return Err(UniqueError::corrupt(&path, "its positions file is missing"));
            }
            done.push((range, counts));
        }
        done.sort_by_key(|&(range, _)| range);
        if done.windows(2).any(|w| w[0].0.end > w[1].0.start) {
            return Err(UniqueError::corrupt(&dir, "two done ranges overlap"));
        }
        Ok(done)
    }

    /// Records `range` of `ply` as done (its positions file, if kept, already in place).
    pub fn record(
        &self,
        ply: u32,
        range: HashRange,
        counts: &RangeCounts,
    ) -> Result<(), UniqueError> {
        let text = serde_json::to_string(counts).expect("counts always serialize");
        write_durably(&self.counts_file(ply, range), text.as_bytes())?;
        sync_dir(&self.ply_dir(ply))
    }

    pub fn create_ply_dir(&self, ply: u32) -> Result<(), UniqueError> {
        let dir = self.ply_dir(ply);
        std::fs::create_dir_all(&dir).map_err(|e| UniqueError::io(&dir, e))
    }

    /// Removes the positions files of `ply` (its counts stay): the ply after it is done.
    pub fn drop_positions(&self, ply: u32) -> Result<(), UniqueError> {
        for (range, mut counts) in self.done_ranges(ply)? {
            if counts.kept {
                counts.kept = false;
                self.record(ply, range, &counts)?;
                let path = self.positions_file(ply, range);
                std::fs::remove_file(&path).map_err(|e| UniqueError::io(&path, e))?;
            }
        }
        Ok(())
    }
}

impl Drop for RunFolder {
    fn drop(&mut self) {
        if self.scratch {
            // Best effort: a leftover folder only costs disk space, and its name says what it is.
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Where `path` is written before it is renamed into place: `path` with `.tmp` added.
pub fn staged(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `path` aside, makes it durable and renames it into place.
fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), UniqueError> {
    let staged = staged(path);
    let mut file = std::fs::File::create(&staged).map_err(|e| UniqueError::io(&staged, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| UniqueError::io(&staged, e))?;
    std::fs::rename(&staged, path).map_err(|e| UniqueError::io(path, e))
}

fn sync_dir(dir: &Path) -> Result<(), UniqueError> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| UniqueError::io(dir, e))
}
