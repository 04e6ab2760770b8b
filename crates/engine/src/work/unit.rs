//! A unit: one unique position at the split ply, the depth left below it, and how many paths
//! lead to it from the root (in all and per root move). One JSON line of a shard file.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: u64,
    pub fen: String,
    /// Plies left below the unit: the plan's depth minus its split ply.
    pub depth: u32,
    /// Paths from the root: the unit's count enters the total this many times.
    pub paths: u128,
    /// Paths per root move (UCI), in the root's generation order.
    pub roots: Vec<(String, u128)>,
}

#[derive(Serialize, Deserialize)]
struct UnitLine {
    unit: u64,
    fen: String,
    depth: u32,
    paths: String,
    roots: Vec<RootPathsLine>,
}

#[derive(Serialize, Deserialize)]
struct RootPathsLine {
    #[serde(rename = "move")]
    mv: String,
    paths: String,
}

impl Unit {
    /// The unit's line in a shard file, with its newline.
    pub fn to_line(&self) -> String {
        let line = UnitLine {
            unit: self.id,
            fen: self.fen.clone(),
            depth: self.depth,
            paths: self.paths.to_string(),
            roots: self
                .roots
                .iter()
                .map(|(mv, paths)| RootPathsLine {
                    mv: mv.clone(),
                    paths: paths.to_string(),
                })
                .collect(),
        };
        let json = serde_json::to_string(&line).expect("a unit always serializes");
        format!("{json}\n")
    }

    /// Parses a shard line (without its newline).
    pub fn parse(line: &str) -> Result<Unit, String> {
        let parsed: UnitLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let number = |text: &str| {
            text.parse::<u128>()
                .map_err(|_| format!("'{text}' is not a count"))
        };
        let roots = parsed
            .roots
            .iter()
            .map(|root| Ok((root.mv.clone(), number(&root.paths)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let unit = Unit {
            id: parsed.unit,
            fen: parsed.fen,
            depth: parsed.depth,
            paths: number(&parsed.paths)?,
            roots,
        };
        if unit.roots.iter().map(|(_, paths)| paths).sum::<u128>() != unit.paths {
            return Err(format!(
                "unit {}: the paths per root move do not add up to {}",
                unit.id, unit.paths
            ));
        }
        Ok(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_round_trip_through_their_line() {
        let unit = Unit {
            id: 17,
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            depth: 3,
            paths: u128::from(u64::MAX) + 2,
            roots: vec![
                ("e2e4".into(), 1),
                ("e2e3".into(), u128::from(u64::MAX) + 1),
            ],
        };
        let line = unit.to_line();
        assert!(line.ends_with("}\n") && line.matches('\n').count() == 1);
        assert!(
            line.contains(r#""roots":[{"move":"e2e4","paths":"1"}"#),
            "{line}"
        );
        assert_eq!(Unit::parse(line.trim_end()), Ok(unit));
        let wrong_sum = line.replace(r#""paths":"1"}"#, r#""paths":"2"}"#);
        assert!(Unit::parse(wrong_sum.trim_end()).is_err());
        assert!(Unit::parse(&line.replace(r#""depth":3"#, r#""depth":"3""#)).is_err());
        assert!(Unit::parse(&line.replace(r#""paths":"1"}"#, r#""paths":"one"}"#)).is_err());
    }
}
