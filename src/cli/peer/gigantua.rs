//! Gigantua (github.com/Gigantua/Gigantua): `Gigantua FEN DEPTH` counts every depth from 1 up
//! to DEPTH, one line each (`Perft 6: 119060324 136ms 875.4 MNodes/s`), and then waits for a key.

use super::program::Program;

/// The deepest perft Gigantua runs: it prints a message instead of counting beyond it.
const MAX_DEPTH: u32 = 12;

pub struct Gigantua;

impl Program for Gigantua {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String> {
        vec![fen.to_string(), depth.to_string()]
    }

    fn total(&self, stdout: &str, depth: u32) -> Option<u128> {
        let label = format!("Perft {depth}:");
        stdout
            .lines()
            .find_map(|line| line.trim().strip_prefix(&label))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|count| count.parse().ok())
    }

    fn unsupported(&self, depth: u32) -> Option<&'static str> {
        match depth {
            0 => Some("Gigantua counts from depth 1"),
            d if d > MAX_DEPTH => Some("Gigantua counts to depth 12 at most"),
            _ => None,
        }
    }
}
