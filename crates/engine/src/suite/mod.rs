//! Perft suites: files of positions with published counts (EPD `;D1 20` lines, `.perft`
//! files, tab-separated tables), run against vkperft or the user's engine, every failure walked
//! to the first wrong position with the hunt's walk; and suites generated from seeded random
//! games.
//!
//! - [`read`]: a file of any format, with [`epd`], [`perft_file`] and [`table`] for each; the
//!   move-type statistics an EPD line may give beside its counts, [`expected_stats`];
//! - [`select`]: which depths run (`--depth`, `--max-nodes`);
//! - [`run`]: the workers, their engines, deadlines and restarts;
//! - [`outcome`], [`describe`], [`report_json`], [`junit`]: results and how they are written;
//! - [`generate`]: a suite from random games.

mod describe;
mod entry;
mod epd;
mod error;
mod expected_stats;
mod generate;
mod junit;
mod outcome;
mod perft_file;
mod read;
mod report_json;
mod run;
mod select;
mod subject;
mod table;

pub use describe::{drill_text, finding_text, headline};
pub use entry::{DepthCount, SuiteEntry};
pub use error::{LineProblem, Location, SuiteError};
pub use expected_stats::{ExpectedStats, StatCheck};
pub use generate::{epd_text, generate, GenerateSettings, GeneratedPosition};
pub use junit::junit_xml;
pub use outcome::{Drill, PositionResult, Summary, Verdict};
pub use read::{read_suite_file, read_suite_text, SkippedLine, SuiteFile, SuiteFormat};
pub use report_json::{finding_json, result_json, suite_json};
pub use run::{run_suite, RunError, RunSettings, Subject};
pub use select::{select, DepthChoice, Selection, Task, DEFAULT_MAX_NODES};
pub use subject::VkperftSubject;
