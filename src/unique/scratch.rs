//! A folder of temporary files (sorted runs, level files) that removes itself when dropped.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub struct Scratch {
    dir: PathBuf,
    next_file: u64,
}

impl Scratch {
    /// A new folder under `parent`, named after this process and the time so that several
    /// processes can share `parent`.
    pub fn create(parent: &Path) -> std::io::Result<Scratch> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos());
        let dir = parent.join(format!(".vkperft-unique-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch { dir, next_file: 0 })
    }

    /// A path for a new file in the folder.
    pub fn file(&mut self, what: &str) -> PathBuf {
        self.next_file += 1;
        self.dir.join(format!("{what}-{}.bin", self.next_file))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Best effort: a leftover folder only costs disk space, and its name says what it is.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
