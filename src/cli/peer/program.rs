//! What `bench` needs to know of a peer that counts one perft per process.

/// A program that counts one perft per process: how to ask it, and where its total is.
pub trait Program: Sync {
    fn arguments(&self, fen: &str, depth: u32) -> Vec<String>;
    /// The total for `depth` in the program's standard output, if it printed one.
    fn total(&self, stdout: &str, depth: u32) -> Option<u128>;
    /// The arguments that keep the program from making a transposition table, where it makes
    /// one unless told not to.
    fn no_table_arguments(&self) -> Vec<String> {
        Vec::new()
    }
    /// The arguments that give the program a transposition table of `mib` MiB; `None` for a
    /// program without one.
    fn table_arguments(&self, _mib: u64) -> Option<Vec<String>> {
        None
    }
    /// The arguments that make the program count with `threads` threads, where it has an
    /// option for it (none: it runs the threads it always runs).
    fn thread_arguments(&self, _threads: usize) -> Vec<String> {
        Vec::new()
    }
    /// Why the program cannot count at `depth`, if it cannot.
    fn unsupported(&self, _depth: u32) -> Option<&'static str> {
        None
    }
}
