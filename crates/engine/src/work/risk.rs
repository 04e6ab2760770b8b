//! A plan's table statistics and false-hit risk, per mode, from its records: each record's
//! expected false hits by the risk model of a single run ([`crate::tt::Risk`]: `λ = w / 2^b`
//! for `w` wrong-occupied probes at `b` verifier bits), summed, with `P(any) = 1 - exp(-Σλ)`.

use super::error::WorkError;
use super::record::JournalRecord;
use super::trust::{Method, Trust};
use crate::tt::compact::compact_verifier_bits;
use crate::tt::{p_at_least_one, Risk};
use std::collections::BTreeMap;

/// The records of one mode (`fast`, `fast/8`, `certify`, ...) and their risk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModeRisk {
    pub mode: String,
    pub records: u64,
    /// Units with at least one record of this mode.
    pub units: u64,
    pub probes: u128,
    pub wrong_occupied_probes: u128,
    /// `certify`: false hits caught and corrected.
    pub false_hits: u128,
    pub payload_skips: u128,
    /// The sum of the records' `λ`. For `verified` and `certify` it is what a fast table
    /// would have risked: their counts do not depend on it.
    pub expected_false_hits: f64,
    /// `1 - exp(-expected_false_hits)`.
    pub p_any: f64,
}

/// A plan's risk: per mode, and for its count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanRisk {
    /// Sorted by mode.
    pub modes: Vec<ModeRisk>,
    /// The false hits expected in the count: the `λ` of the fast records of units that rest on
    /// one seed (an exact record, or agreeing records of two seeds, leave none undetected).
    pub count_expected_false_hits: f64,
    /// `1 - exp(-count_expected_false_hits)`.
    pub count_p_any: f64,
}

fn add(sum: u128, amount: u64, unit: u64, what: &'static str) -> Result<u128, WorkError> {
    sum.checked_add(u128::from(amount))
        .ok_or(WorkError::Overflow { unit, what })
}

impl PlanRisk {
    /// The risk of the records of each unit (by unit id).
    pub fn of(results: &BTreeMap<u64, Vec<&JournalRecord>>) -> Result<PlanRisk, WorkError> {
        let mut modes: BTreeMap<String, ModeRisk> = BTreeMap::new();
        let mut count_lambda = 0.0;
        for (&unit, records) in results {
            let one_seed = matches!(
                Trust::of(records.iter().map(|r| r.method)),
                Trust::OneSeed { .. }
            );
            let mut labels: Vec<String> = Vec::new();
            for record in records {
                let label = record.method.mode_label();
                let lambda = expected_false_hits(record);
                let mode = modes.entry(label.clone()).or_insert_with(|| ModeRisk {
                    mode: label.clone(),
                    ..ModeRisk::default()
                });
                mode.records += 1;
                if !labels.contains(&label) {
                    labels.push(label);
                    mode.units += 1;
                }
                let table = &record.table;
                mode.probes = add(mode.probes, table.probes, unit, "the probes")?;
                mode.wrong_occupied_probes = add(
                    mode.wrong_occupied_probes,
                    table.wrong_occupied_probes,
                    unit,
                    "the wrong-occupied probes",
                )?;
                mode.false_hits = add(mode.false_hits, table.false_hits, unit, "the false hits")?;
                mode.payload_skips = add(
                    mode.payload_skips,
                    table.payload_skips,
                    unit,
                    "the payload skips",
                )?;
                mode.expected_false_hits += lambda;
                if one_seed && !record.method.is_exact() {
                    count_lambda += lambda;
                }
            }
        }
        let modes = modes
            .into_values()
            .map(|mode| ModeRisk {
                p_any: p_at_least_one(mode.expected_false_hits),
                ..mode
            })
            .collect();
        Ok(PlanRisk {
            modes,
            count_expected_false_hits: count_lambda,
            count_p_any: p_at_least_one(count_lambda),
        })
    }

    /// One line per mode with a table, and the count's line: for people.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for mode in self.modes.iter().filter(|m| m.probes > 0) {
            text += &format!(
                "Risk {}: {} records, {} probes, {} wrong-occupied -> expected false hits {:.3e}, P(any) {:.3e}",
                mode.mode,
                mode.records,
                mode.probes,
                mode.wrong_occupied_probes,
                mode.expected_false_hits,
                mode.p_any
            );
            if mode.false_hits > 0 {
                text += &format!("; {} false hits caught", mode.false_hits);
            }
            if !mode.mode.starts_with("fast") {
                text += " (what a fast table would risk; this mode's counts are exact)";
            }
            text.push('\n');
        }
        text += &format!(
            "Risk of the count: expected false hits {:.3e}, P(any) {:.3e}\n",
            self.count_expected_false_hits, self.count_p_any
        );
        text
    }

    pub fn to_json(&self) -> serde_json::Value {
        let modes: Vec<serde_json::Value> = self
            .modes
            .iter()
            .map(|m| {
                serde_json::json!({
                    "mode": m.mode,
                    "records": m.records,
                    "units": m.units,
                    "probes": m.probes.to_string(),
                    "wrong_occupied_probes": m.wrong_occupied_probes.to_string(),
                    "false_hits": m.false_hits.to_string(),
                    "payload_skips": m.payload_skips.to_string(),
                    "expected_false_hits": m.expected_false_hits,
                    "p_any": m.p_any,
                })
            })
            .collect();
        serde_json::json!({
            "modes": modes,
            "count": {
                "expected_false_hits": self.count_expected_false_hits,
                "p_any": self.count_p_any,
            },
        })
    }
}

/// A record's `λ` by the single-run model.
/// A record's `λ`, each probe at the width it compared: compact depth-2 slots keep at most 48
/// verifier bits.
fn expected_false_hits(record: &JournalRecord) -> f64 {
    let Method { verifier_bits, .. } = record.method;
    let table = &record.table;
    let compact = table.compact_wrong_occupied_probes;
    Risk::by_depth(
        [
            (
                table.wrong_occupied_probes.saturating_sub(compact),
                verifier_bits,
            ),
            (compact, compact_verifier_bits(verifier_bits)),
        ],
        verifier_bits,
        record.nodes,
    )
    .expected_false_hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Device;
    use crate::tt::TtMode;
    use crate::work::record::TableStats;
    use crate::work::seal::PlanSeal;

    fn record(unit: u64, mode: TtMode, bits: u32, seed: u64, wrong: u64) -> JournalRecord {
        JournalRecord {
            plan: PlanSeal::of(b""),
            unit,
            nodes: 1000,
            paths: 1,
            method: Method {
                mode,
                verifier_bits: bits,
                seed,
            },
            device: Device::Cpu { threads: 1 },
            table: TableStats {
                probes: wrong * 2,
                wrong_occupied_probes: wrong,
                compact_wrong_occupied_probes: 0,
                false_hits: 0,
                payload_skips: 0,
            },
            seconds: 0.0,
            move_stats: None,
        }
    }

    /// Per mode, the sum of each record's `λ` as a single run states it; the count's risk
    /// leaves out units with an exact record or two seeds.
    #[test]
    fn risks_add_up_per_mode_with_the_single_run_model() {
        let records = [
            record(0, TtMode::Fast, 8, 1, 256),
            record(1, TtMode::Fast, 8, 1, 512),
            record(1, TtMode::Verified, 64, 1, 0),
            record(2, TtMode::Fast, 16, 1, 65_536),
            record(2, TtMode::Fast, 16, 2, 65_536),
        ];
        let mut results: BTreeMap<u64, Vec<&JournalRecord>> = BTreeMap::new();
        for r in &records {
            results.entry(r.unit).or_default().push(r);
        }
        let risk = PlanRisk::of(&results).expect("no overflow");
        let labels: Vec<&str> = risk.modes.iter().map(|m| m.mode.as_str()).collect();
        assert_eq!(labels, ["fast/16", "fast/8", "verified"]);
        let fast8 = &risk.modes[1];
        assert_eq!((fast8.records, fast8.units), (2, 2));
        assert_eq!(fast8.expected_false_hits, 3.0);
        assert_eq!(fast8.wrong_occupied_probes, 768);
        let single = Risk::new(256, 8, 1000).expected_false_hits
            + Risk::new(512, 8, 1000).expected_false_hits;
        assert_eq!(fast8.expected_false_hits, single);
        assert_eq!(fast8.p_any, p_at_least_one(3.0));
        assert_eq!(risk.modes[0].expected_false_hits, 2.0);
        // Only unit 0 rests on one seed of a fast table.
        assert_eq!(risk.count_expected_false_hits, 1.0);
        assert_eq!(risk.count_p_any, p_at_least_one(1.0));
    }

    /// A GPU record's compact depth-2 probes count at 48 bits, the rest at the table's 64.
    #[test]
    fn compact_probes_count_at_their_own_width() {
        let mut gpu = record(0, TtMode::Fast, 64, 1, 3 << 20);
        gpu.table.compact_wrong_occupied_probes = 1 << 20;
        let lambda = expected_false_hits(&gpu);
        let expected = 2f64.powi(-28) + 2f64.powi(-43);
        assert!((lambda - expected).abs() < 1e-20, "{lambda}");
    }
}
