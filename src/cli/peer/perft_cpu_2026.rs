//! perft_cpu_2026 (github.com/ankan-ban/perft_cpu_2026): `perft_cpu FEN DEPTH -nott` counts
//! with no table, one thread, and prints `Perft(06): 119060324, time: 0.27 seconds, nps: ...`;
//! `-htt MIB` instead gives it a lossless table of that many MiB. Without either it takes most
//! of the machine's memory for its table, so one is always passed.

use super::program::Program;

pub struct PerftCpu2026;

impl Program for PerftCpu2026 {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String> {
        vec![fen.to_string(), depth.to_string()]
    }

    fn no_table_arguments(&self) -> Vec<String> {
        vec!["-nott".to_string()]
    }

    fn table_arguments(&self, mib: u64) -> Option<Vec<String>> {
        Some(vec!["-htt".to_string(), mib.to_string()])
    }

    /// One thread is its default; `-mt N` splits the root's moves and their replies over N.
    fn thread_arguments(&self, threads: usize) -> Vec<String> {
        if threads > 1 {
            vec!["-mt".to_string(), threads.to_string()]
        } else {
            Vec::new()
        }
    }

    fn total(&self, stdout: &str, depth: u32) -> Option<u128> {
        let label = format!("Perft({depth:02}):");
        stdout
            .lines()
            .find_map(|line| line.trim().strip_prefix(&label))
            .and_then(|rest| rest.split(',').next())
            .and_then(|count| count.trim().parse().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_total_of_the_depth_asked() {
        let out = "Perft(05): 4865609, time: 0.01 seconds, nps: 1\n\
                   Perft(06): 119060324, time: 0.273497 seconds, nps: 435326585\n";
        assert_eq!(PerftCpu2026.total(out, 6), Some(119_060_324));
        assert_eq!(PerftCpu2026.total(out, 7), None);
        assert_eq!(PerftCpu2026.total("Perft(06): many", 6), None);
    }
}
