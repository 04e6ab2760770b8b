//! MPerft (github.com/abulmo/MPerft): `mperft --fen FEN --depth N --bulk` counts with bulk
//! counting at the last ply and no hash table (its default), one thread, and prints
//! `perft  6 :       119060324 leaves in      0.188 s    633299596 leaves/s`; `-h MIB` gives
//! it a hash table of that many MiB.

use super::program::Program;

pub struct Mperft;

impl Program for Mperft {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String> {
        ["--fen", fen, "--depth", &depth.to_string(), "--bulk"]
            .map(String::from)
            .to_vec()
    }

    fn table_arguments(&self, mib: u64) -> Option<Vec<String>> {
        Some(vec!["-h".to_string(), mib.to_string()])
    }

    fn total(&self, stdout: &str, depth: u32) -> Option<u128> {
        stdout.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            let is_total = words.next() == Some("perft")
                && words.next() == Some(depth.to_string().as_str())
                && words.next() == Some(":");
            is_total.then(|| words.next()?.parse().ok()).flatten()
        })
    }
}
