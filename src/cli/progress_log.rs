//! `perft --progress-log FILE`: every progress report as one JSON line, flushed as it comes,
//! for a script that watches a long run (and for the progress traces the window's time-left
//! tests replay).

use super::error::CliError;
use anyhow::anyhow;
use serde_json::json;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use vkperft::engine::Progress;

pub struct ProgressLog {
    path: PathBuf,
    file: BufWriter<File>,
    /// The first write that failed: the run goes on, and the command fails at its end.
    failed: Option<std::io::Error>,
}

impl ProgressLog {
    /// Creates (or empties) `path` before the run starts, so that a path that cannot be written
    /// is refused before any work.
    pub fn create(path: &Path) -> Result<ProgressLog, CliError> {
        let file = File::create(path).map_err(|error| {
            CliError::runtime(anyhow!(
                "cannot write the progress log {}: {error}",
                path.display()
            ))
        })?;
        Ok(ProgressLog {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
            failed: None,
        })
    }

    pub fn record(&mut self, progress: &Progress) {
        if self.failed.is_some() {
            return;
        }
        let line = progress_line(progress);
        let written = writeln!(self.file, "{line}").and_then(|()| self.file.flush());
        if let Err(error) = written {
            self.failed = Some(error);
        }
    }

    /// The first failed write, if any, as the command's error.
    pub fn finish(mut self) -> Result<(), CliError> {
        let flushed = self.file.flush();
        match self.failed.take().map_or(flushed, Err) {
            Ok(()) => Ok(()),
            Err(error) => Err(CliError::runtime(anyhow!(
                "could not write the progress log {}: {error}",
                self.path.display()
            ))),
        }
    }
}

/// One report: seconds since the start, leaves counted by the finished tasks, the tasks, and
/// the table's totals so far with the stores forecast for the end (`null` without a table;
/// the forecast `null` until made).
pub fn progress_line(progress: &Progress) -> serde_json::Value {
    let tt = progress.tt.as_ref().map(|tt| {
        json!({
            "probes": tt.total.probes,
            "hits": tt.total.hits,
            "stores": tt.total.stores,
            "occupancy": tt.total.occupancy,
            "expected_stores": progress.expected_table_stores,
        })
    });
    json!({
        "seconds": progress.elapsed.as_secs_f64(),
        "nodes": progress.nodes.to_string(),
        "tasks_done": progress.tasks_done,
        "tasks_total": progress.tasks_total,
        "tt": tt,
    })
}
