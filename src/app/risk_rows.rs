//! The transposition table's false-hit risk in words that match its mode: `fast` states the
//! model's expectation, `certify` says its false hits were caught and corrected, `verified`
//! that none is possible.

use super::format;
use crate::tt::{TtMode, TtStatsSnapshot};
use egui::Ui;

const CERTIFY_EXPECTATION: &str =
    "How many probes the fast check alone would have let through: probes that met another \
     position's entry, divided by 2^verifier bits. certify's entries also hold the exact key, \
     so a MiB holds fewer of them than in fast: more probes meet another position's entry, and \
     more false hits are expected than with fast at the same size. Every one is caught.";

/// Rows of a two-column grid for the table `tt` of a run of `nodes` nodes so far.
pub fn show(ui: &mut Ui, tt: &TtStatsSnapshot, nodes: u128) {
    let risk = tt.risk(nodes);
    match tt.mode {
        TtMode::Off => {}
        TtMode::Verified => {
            ui.label("False hits")
                .on_hover_text("Entries are keyed by the exact 32-byte position");
            ui.label("exact keys: no false hit possible");
            ui.end_row();
        }
        TtMode::Certify => {
            ui.label("False hits").on_hover_text(
                "Fast-table hits whose exact key differed: each was caught and its count \
                 searched again, so none is in the total",
            );
            ui.label(format!(
                "{} caught, corrected",
                format::thousands(u128::from(tt.total.false_hits))
            ));
            ui.end_row();
            ui.label("Expected by fast")
                .on_hover_text(CERTIFY_EXPECTATION);
            ui.label(format::small(risk.expected_false_hits))
                .on_hover_text(CERTIFY_EXPECTATION);
            ui.end_row();
        }
        TtMode::Fast => {
            ui.label("Expected false hits").on_hover_text(format!(
                "How many probes would pass the {}-bit verifier by chance: probes that met \
                 another position's entry, divided by 2^{}",
                risk.verifier_bits, risk.verifier_bits
            ));
            ui.label(format::small(risk.expected_false_hits));
            ui.end_row();
            ui.label("P(any false hit)").on_hover_text(
                "The chance that at least one false hit changed this count; verified or \
                 certify rule it out",
            );
            ui.label(format::small(risk.p_false_hit));
            ui.end_row();
        }
    }
}
