//! MPerft (github.com/abulmo/MPerft): `mperft --fen FEN --depth N --bulk` counts with bulk
//! counting at the last ply and no hash table (its default), one thread; `-h MIB` gives it a
//! hash table of that many MiB. MPerft 5 also counts the moves two plies above the leaves that
//! leave the opponent's replies unchanged without making them (`--nullmove`): the peer
//! `mperft-null`. Version 2 prints `perft  6 :       119060324 leaves in ...`, version 5
//! `perft  6:                119,060,324 positions in ...`.

use super::program::Program;

pub struct Mperft {
    /// Whether to pass `--nullmove` (MPerft 5 and later).
    pub null_move: bool,
}

impl Program for Mperft {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String> {
        let mut arguments = ["--fen", fen, "--depth", &depth.to_string(), "--bulk"]
            .map(String::from)
            .to_vec();
        if self.null_move {
            arguments.push("--nullmove".to_string());
        }
        arguments
    }

    fn table_arguments(&self, mib: u64) -> Option<Vec<String>> {
        Some(vec!["-h".to_string(), mib.to_string()])
    }

    /// One thread is its default (and MPerft 2 has no option for more).
    fn thread_arguments(&self, threads: usize) -> Vec<String> {
        if threads > 1 {
            vec!["--threads".to_string(), threads.to_string()]
        } else {
            Vec::new()
        }
    }

    fn total(&self, stdout: &str, depth: u32) -> Option<u128> {
        let label = format!("{depth}:");
        stdout.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("perft")?.trim_start();
            let rest = rest.strip_prefix(&label).or_else(|| {
                rest.strip_prefix(&depth.to_string())?
                    .trim_start()
                    .strip_prefix(':')
            })?;
            let count = rest.split_whitespace().next()?.replace(',', "");
            count.parse().ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Mperft = Mperft { null_move: false };

    #[test]
    fn reads_the_totals_of_versions_2_and_5() {
        let v2 = "perft  6 :       119060324 leaves in      0.188 s    633299596 leaves/s\n";
        assert_eq!(PLAIN.total(v2, 6), Some(119_060_324));
        let v5 = "perft  5:                  4,865,609 positions in 0.01\n\
                  perft 16:                119,060,324 positions in           0.152 780.605 Mpos/s\n";
        assert_eq!(PLAIN.total(v5, 16), Some(119_060_324));
        assert_eq!(PLAIN.total(v5, 5), Some(4_865_609));
        assert_eq!(PLAIN.total(v5, 6), None);
    }

    #[test]
    fn the_null_move_peer_asks_for_null_move_counting() {
        let arguments = Mperft { null_move: true }.arguments("8/8/8/8/8/8/8/8 w - - 0 1", 5);
        assert!(arguments.contains(&"--nullmove".to_string()));
        assert!(!PLAIN
            .arguments("fen", 5)
            .contains(&"--nullmove".to_string()));
    }
}
