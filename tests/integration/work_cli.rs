//! `vkperft work` and `vkperft unique` end to end on the CPU backend: exact totals and divides,
//! byte-identical plans, resuming after SIGKILL, torn and damaged journal lines, damaged
//! plans, disagreeing units, `compare` catching a narrowed fast table, and unique positions
//! per ply against OEIS A083276, scheduler tasks (`--shard-from-env`, the same shard twice at
//! once) and `work slurm` without a cluster (dry runs, a missing or failing sbatch).

mod forgery;
mod journal;
mod plans;
mod scheduler;
mod trust;
mod unique_plans;

use crate::common::{run_vkperft, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use vkperft::work::{JournalRecord, Method, PlanFolder};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn vkperft(args: &[&str]) -> Run {
    run_vkperft(args, &[])
}

/// An empty folder of this test's own, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("vkperft-work-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Folder(dir)
    }

    fn plan(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn ok(args: &[&str]) -> Run {
    let run = vkperft(args);
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run
}

/// Exit 2 and an error naming `needle`.
fn refused(args: &[&str], code: i32, needle: &str) -> String {
    let run = vkperft(args);
    assert_eq!(run.code, code, "{args:?}: {}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    run.stderr
}

fn json(args: &[&str]) -> Value {
    let run = ok(args);
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn big(value: &Value) -> u128 {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
}

fn split(plan: &str, fen: &str, depth: u32, split_ply: u32, extra: &[&str]) -> Value {
    let (depth, split_ply) = (depth.to_string(), split_ply.to_string());
    let args = [
        &["work", "split", "--fen", fen, "--depth", &depth],
        &["--split-ply", &split_ply, "--out", plan][..],
        extra,
    ]
    .concat();
    ok(&args);
    manifest(plan)
}

fn manifest(plan: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(plan).join("manifest.json")).expect("manifest");
    serde_json::from_str(&text).expect("JSON")
}

/// Every journal line of `plan`, file by file.
fn journal_lines(plan: &str) -> Vec<Vec<String>> {
    let dir = Path::new(plan).join("journal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.expect("entry").path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("journal");
            text.lines().map(str::to_string).collect()
        })
        .collect()
}

fn unit_of(line: &str) -> u64 {
    let value: Value = serde_json::from_str(line).expect("a journal line");
    value["unit"].as_u64().expect("a unit id")
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
