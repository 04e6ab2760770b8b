//! What the app remembers across restarts (with eframe's storage); eframe itself keeps the
//! window's size and place.

use super::backend::BackendSelection;
use crate::chess::fen::START_FEN;
use crate::chess::zobrist::DEFAULT_SEED;
use crate::engine::{all_cores, DEFAULT_TT_MB};
use crate::hunt::EngineCommand;
use crate::tt::{TtMode, DEFAULT_VERIFIER_BITS};
use serde::{Deserialize, Serialize};

const STORAGE_KEY: &str = "vkperft-settings";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub depth: u32,
    pub backend: BackendSelection,
    pub threads: usize,
    #[serde(with = "tt_mode_name")]
    pub tt_mode: TtMode,
    pub tt_mb: u64,
    pub verifier_bits: u32,
    pub zobrist_seed: u64,
    /// Count the move-type statistics (captures, checks, mates…) too.
    pub move_stats: bool,
    pub fen: String,
    pub dark_theme: bool,
    /// The user's engine, to compare divides with and hunt bugs in (empty: none).
    pub engine: String,
    pub engine_kind: EngineKind,
    /// Seconds one answer of the user's engine may take.
    pub engine_deadline_s: u64,
}

/// The engine deadline's bounds, in seconds: a second to a day.
pub const ENGINE_DEADLINE_RANGE_S: std::ops::RangeInclusive<u64> = 1..=86_400;

/// How the user's engine is reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineKind {
    /// A UCI engine answering `go perft N`.
    #[default]
    Uci,
    /// A perftree-style script: `CMD depth fen moves`.
    Script,
}

impl EngineKind {
    pub const ALL: [EngineKind; 2] = [EngineKind::Uci, EngineKind::Script];

    pub fn label(self) -> &'static str {
        match self {
            EngineKind::Uci => "UCI",
            EngineKind::Script => "script",
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: 5,
            backend: BackendSelection::Cpu,
            threads: all_cores(),
            tt_mode: TtMode::Fast,
            tt_mb: DEFAULT_TT_MB,
            verifier_bits: DEFAULT_VERIFIER_BITS,
            zobrist_seed: DEFAULT_SEED,
            move_stats: false,
            fen: START_FEN.to_string(),
            dark_theme: true,
            engine: String::new(),
            engine_kind: EngineKind::Uci,
            engine_deadline_s: 60,
        }
    }
}

impl Settings {
    /// The engine to compare with, if one is set.
    pub fn engine_command(&self) -> Option<EngineCommand> {
        let command = self.engine.trim();
        if command.is_empty() {
            return None;
        }
        Some(match self.engine_kind {
            EngineKind::Uci => EngineCommand::Uci(command.to_string()),
            EngineKind::Script => EngineCommand::Script(command.to_string()),
        })
    }

    /// How long one answer of the user's engine may take.
    pub fn engine_deadline(&self) -> std::time::Duration {
        let seconds = self.engine_deadline_s.clamp(
            *ENGINE_DEADLINE_RANGE_S.start(),
            *ENGINE_DEADLINE_RANGE_S.end(),
        );
        std::time::Duration::from_secs(seconds)
    }

    pub fn load(storage: Option<&dyn eframe::Storage>) -> Settings {
        storage
            .and_then(|storage| eframe::get_value(storage, STORAGE_KEY))
            .unwrap_or_default()
    }

    pub fn save(&self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, self);
    }
}

/// `TtMode` is stored by its command-line name.
mod tt_mode_name {
    use crate::tt::TtMode;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(mode: &TtMode, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(mode.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TtMode, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_json() {
        let settings = Settings {
            tt_mode: TtMode::Certify,
            depth: 7,
            ..Settings::default()
        };
        let text = serde_json::to_string(&settings).unwrap_or_default();
        assert!(text.contains("\"certify\""));
        let back: Settings = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, settings);
    }
}
