//! What `work verify-certificate` does alike for a perft plan and a unique-positions plan: the
//! sample's seed, the chance a sample misses forged units, and the claims that do not hold.

use super::error::{CliError, CliResult};
use super::output;
use super::work_args::VerifyCertificateArgs;
use anyhow::anyhow;
use std::time::{SystemTime, UNIX_EPOCH};
use vkperft::chess::Position;
use vkperft::engine::JobSpec;
use vkperft::work::miss_chance;

/// The seed of a check's sample: `--seed`, or one drawn from the clock and the process.
pub fn sample_seed_of(args: &VerifyCertificateArgs) -> u64 {
    args.seed.unwrap_or_else(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |t| t.as_nanos());
        (nanos as u64) ^ u64::from(std::process::id()).rotate_left(32)
    })
}

/// The chance that a sample of `sampled` of `units` units misses 1, 10 and 100 forged ones.
pub fn miss_chances(units: u64, sampled: u64) -> String {
    let misses: Vec<String> = [1, 10, 100]
        .iter()
        .filter(|&&forged| forged <= units)
        .map(|&forged| {
            format!(
                "{forged} forged: {:.3e}",
                miss_chance(units, sampled, forged)
            )
        })
        .collect();
    misses.join(", ")
}

/// Notes the journal files newer than a certificate (`unlisted`, what became of them in
/// `fate`) and fails with the claims that do not hold, if any.
pub fn certificate_findings(unlisted: &[String], fate: &str, failures: &[String]) -> CliResult {
    for file in unlisted {
        output::write_stderr(&format!(
            "note: journal/{file} is newer than the certificate and {fate}\n"
        ));
    }
    if failures.is_empty() {
        return Ok(());
    }
    Err(CliError::Mismatch(anyhow!(
        "the certificate does not hold:\n  {}",
        failures.join("\n  ")
    )))
}

/// The job of a check's recount of `position` to `depth`, on the backend, threads and table
/// its arguments ask for.
pub fn recount_spec(args: &VerifyCertificateArgs, position: Position, depth: u32) -> JobSpec {
    JobSpec {
        backend: args.backend.0,
        device: args.device,
        threads: args.threads.map(|n| n as usize),
        tt_mode: args.tt.0,
        tt_mb: args.tt_mb,
        ..JobSpec::new(position, depth)
    }
}
