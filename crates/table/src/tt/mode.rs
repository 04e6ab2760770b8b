//! How far the transposition table is trusted: the `--tt` modes.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TtMode {
    /// No table: every subtree is searched.
    Off,
    /// 16-byte entries verified by a 64-bit (or narrowed) hash check: fast, with a tiny risk.
    Fast,
    /// 64-byte entries keyed by the exact 32-byte position key: no false hits.
    Verified,
    /// The fast table plus an exact shadow key per slot: every false hit is caught and counted.
    Certify,
}

impl TtMode {
    pub const ALL: [TtMode; 4] = [TtMode::Off, TtMode::Fast, TtMode::Verified, TtMode::Certify];

    pub const fn name(self) -> &'static str {
        match self {
            TtMode::Off => "off",
            TtMode::Fast => "fast",
            TtMode::Verified => "verified",
            TtMode::Certify => "certify",
        }
    }

    /// Whether the mode's entries carry the fast table's verifier (`fast`, `certify`): the
    /// modes that `--verifier-bits` narrows.
    pub const fn has_verifier(self) -> bool {
        matches!(self, TtMode::Fast | TtMode::Certify)
    }

    /// What the mode trusts and costs, for people choosing one (the CLI's help, the window).
    pub const fn description(self) -> &'static str {
        match self {
            TtMode::Off => "No table: every subtree is searched. Raw move generation speed, the ground truth.",
            TtMode::Fast => "16-byte entries checked by a 64-bit verifier: fastest, with a stated tiny risk of a false hit.",
            TtMode::Verified => "Entries keyed by the exact 32-byte position and holding 128-bit counts: no false hits, more memory per entry.",
            TtMode::Certify => "The fast table plus an exact shadow key per slot: counts every false hit the fast table would let through, and corrects it.",
        }
    }
}

impl fmt::Display for TtMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown TT mode `{given}`; valid modes are: off, fast, verified, certify")]
pub struct ParseTtModeError {
    pub given: String,
}

impl FromStr for TtMode {
    type Err = ParseTtModeError;

    fn from_str(s: &str) -> Result<TtMode, ParseTtModeError> {
        TtMode::ALL
            .into_iter()
            .find(|mode| mode.name() == s)
            .ok_or_else(|| ParseTtModeError {
                given: s.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for mode in TtMode::ALL {
            assert_eq!(mode.to_string().parse::<TtMode>(), Ok(mode));
            assert_eq!(
                serde_json::to_value(mode).ok(),
                Some(serde_json::Value::String(mode.to_string()))
            );
        }
    }

    #[test]
    fn only_the_fast_layouts_have_a_verifier() {
        let with: Vec<TtMode> = TtMode::ALL
            .into_iter()
            .filter(|m| m.has_verifier())
            .collect();
        assert_eq!(with, [TtMode::Fast, TtMode::Certify]);
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let err = "Fast".parse::<TtMode>().err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unknown TT mode `Fast`; valid modes are: off, fast, verified, certify")
        );
    }
}
