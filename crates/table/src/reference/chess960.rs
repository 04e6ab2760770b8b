//! The 960 Chess960 start positions with their perft to depth 5, shipped with the program
//! (`assets/chess960-perft.tsv`, computed by Stockfish with `UCI_Chess960`).

use crate::chess::fen::position_key;
use std::sync::OnceLock;

const CHESS960_TSV: &str = include_str!("../../../../assets/chess960-perft.tsv");

/// The deepest published depth of every start position.
pub const MAX_DEPTH: u32 = 5;

/// One start position, numbered as in the Scharnagl scheme (518 is the standard start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    pub index: u16,
    /// Castling rights as `KQkq` (X-FEN).
    pub xfen: &'static str,
    /// Castling rights as the rooks' files (Shredder-FEN).
    pub shredder_fen: &'static str,
    /// perft 1 to [`MAX_DEPTH`].
    pub perft: [u64; MAX_DEPTH as usize],
}

impl StartPosition {
    /// The published perft at `depth`, 1 to [`MAX_DEPTH`].
    pub fn nodes(&self, depth: u32) -> Option<u64> {
        let index = usize::try_from(depth.checked_sub(1)?).ok()?;
        self.perft.get(index).copied()
    }

    pub fn name(&self) -> String {
        format!("Chess960 start position {}", self.index)
    }
}

/// Every start position, by index 0 to 959.
pub fn start_positions() -> &'static [StartPosition] {
    static POSITIONS: OnceLock<Vec<StartPosition>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        CHESS960_TSV
            .lines()
            .filter(|line| !line.starts_with('#') && !line.starts_with("index"))
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                parse_line(line)
                    .unwrap_or_else(|| panic!("malformed line in the shipped table: {line}"))
            })
            .collect()
    })
}

/// The start position numbered `index`.
pub fn start_position(index: u16) -> Option<&'static StartPosition> {
    start_positions().get(usize::from(index))
}

/// The start position a FEN describes, compared by the first four fields with both its X-FEN and
/// its Shredder-FEN.
pub fn lookup(fen: &str) -> Option<&'static StartPosition> {
    let wanted = position_key(fen);
    start_positions().iter().find(|start| {
        position_key(start.xfen) == wanted || position_key(start.shredder_fen) == wanted
    })
}

fn parse_line(line: &'static str) -> Option<StartPosition> {
    let fields: Vec<&'static str> = line.split('\t').collect();
    let [index, xfen, shredder_fen, counts @ ..] = fields.as_slice() else {
        return None;
    };
    let mut perft = [0; MAX_DEPTH as usize];
    if counts.len() != perft.len() {
        return None;
    }
    for (value, text) in perft.iter_mut().zip(counts) {
        *value = text.parse().ok()?;
    }
    Some(StartPosition {
        index: index.parse().ok()?,
        xfen,
        shredder_fen,
        perft,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_position_is_listed_in_order() {
        let positions = start_positions();
        assert_eq!(positions.len(), 960);
        for (i, position) in positions.iter().enumerate() {
            assert_eq!(usize::from(position.index), i);
        }
        let standard = start_position(518).expect("518 is listed");
        assert!(standard
            .xfen
            .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"));
        assert_eq!(standard.nodes(5), Some(4_865_609));
        assert_eq!(standard.nodes(6), None);
        assert_eq!(standard.nodes(0), None);
    }
}
