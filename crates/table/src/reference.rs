//! Published perft values shipped with the program (`assets/perft-reference.tsv`), and the
//! Chess960 start positions ([`chess960`]).

pub mod chess960;
pub mod move_stats;

use crate::chess::fen::position_key;
use std::sync::OnceLock;

const REFERENCE_TSV: &str = include_str!("../../../assets/perft-reference.tsv");

/// One published value: `perft(fen, depth) == nodes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceValue {
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u128,
}

/// Every published value, in file order (grouped by position, depths ascending).
pub fn values() -> &'static [ReferenceValue] {
    static VALUES: OnceLock<Vec<ReferenceValue>> = OnceLock::new();
    VALUES.get_or_init(|| {
        REFERENCE_TSV
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let fields: Vec<&str> = line.split('\t').collect();
                let parsed = (fields.len() == 4)
                    .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
                    .flatten();
                let (depth, nodes) =
                    parsed.unwrap_or_else(|| panic!("malformed line in the shipped table: {line}"));
                ReferenceValue {
                    name: fields[0],
                    fen: fields[1],
                    depth,
                    nodes,
                }
            })
            .collect()
    })
}

/// The named positions, once each, in file order.
pub fn positions() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for value in values() {
        if out.last().map(|&(name, _)| name) != Some(value.name) {
            out.push((value.name, value.fen));
        }
    }
    out
}

/// The published value for a position (compared by the first four FEN fields) and depth.
pub fn lookup(fen: &str, depth: u32) -> Option<&'static ReferenceValue> {
    let wanted = position_key(fen);
    values()
        .iter()
        .find(|v| v.depth == depth && position_key(v.fen) == wanted)
}

/// A published perft value from either shipped table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    /// What the position is called: its name in the table, or its Chess960 start number.
    pub name: String,
    pub depth: u32,
    pub nodes: u128,
}

/// The published value for a position and depth: a named position of the reference table or a
/// Chess960 start position (in X-FEN or Shredder-FEN).
pub fn published(fen: &str, depth: u32) -> Option<Published> {
    if let Some(value) = lookup(fen, depth) {
        return Some(Published {
            name: value.name.to_string(),
            depth,
            nodes: value.nodes,
        });
    }
    let start = chess960::lookup(fen)?;
    Some(Published {
        name: start.name(),
        depth,
        nodes: u128::from(start.nodes(depth)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses_and_looks_up() {
        assert_eq!(values().len(), 50);
        assert_eq!(positions().len(), 6);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9";
        assert_eq!(
            lookup(start, 15).map(|v| v.nodes),
            Some(2_015_099_950_053_364_471_960)
        );
        assert!(lookup(start, 16).is_none());
    }

    #[test]
    fn published_values_include_the_chess960_start_positions() {
        let shredder = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
        let xfen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 4 7";
        let expected = Published {
            name: "Chess960 start position 0".to_string(),
            depth: 3,
            nodes: 9006,
        };
        assert_eq!(published(shredder, 3), Some(expected.clone()));
        assert_eq!(published(xfen, 3), Some(expected));
        assert_eq!(published(shredder, 6), None);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            published(start, 3).map(|p| p.name),
            Some("startpos".to_string())
        );
    }
}
