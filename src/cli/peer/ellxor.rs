//! ellxor/perft (github.com/ellxor/perft): `perft FEN DEPTH` prints `Result:            N`.
//! From depth 3 it runs one thread per online CPU and has no option for fewer: pin the whole
//! bench to one CPU (`taskset -c 0`) for a single-thread comparison.

use super::program::Program;

pub struct Ellxor;

impl Program for Ellxor {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String> {
        vec![fen.to_string(), depth.to_string()]
    }

    fn total(&self, stdout: &str, _depth: u32) -> Option<u128> {
        stdout
            .lines()
            .find_map(|line| line.trim().strip_prefix("Result:"))
            .and_then(|count| count.trim().parse().ok())
    }
}
