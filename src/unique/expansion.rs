//! The unique positions of each ply, ply after ply: the positions of ply `p` are the children
//! of the unique positions of ply `p - 1`, merged by their NybbleBoard key (the table's
//! identity: placement, side to move, castling rights, en passant only when a capture is
//! legal). Each carries its paths from the root, per root move when asked. Every ply goes
//! through the external [`Sorter`], so memory stays within a budget and the rest is on disk.

use super::entry::Entry;
use super::error::UniqueError;
use super::scratch::Scratch;
use super::sorter::{Budget, SortedEntries, Sorter};
use crate::chess::movegen::legal_moves;
use crate::chess::{NybbleBoard, Position};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Positions handled between two looks at the interruption flag.
const CHECK_EVERY: u64 = 1 << 16;

/// How an expansion runs.
#[derive(Clone, Debug)]
pub struct ExpansionOptions {
    /// Memory for the entries being sorted, in bytes.
    pub memory_bytes: usize,
    /// Where sorted runs and the plies in between go (in a folder of their own, removed at the
    /// end).
    pub scratch_parent: PathBuf,
    /// Keep the paths of each root move apart (for a plan's `--divide`); otherwise all paths
    /// count under root 0.
    pub by_root_move: bool,
    /// Polled as the expansion goes: once it says so, the expansion stops with
    /// [`UniqueError::Interrupted`] and removes its scratch folder.
    pub interrupted: fn() -> bool,
}

/// For an expansion nothing interrupts.
pub fn never_interrupted() -> bool {
    false
}

/// The count of one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyCount {
    pub ply: u32,
    /// Unique positions.
    pub unique: u64,
    /// Paths from the root: perft(ply).
    pub paths: u128,
}

/// A unique position of the last ply and its paths below each root move (root move index,
/// paths), by root index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniquePosition {
    pub key: NybbleBoard,
    pub roots: Vec<(u8, u128)>,
}

impl UniquePosition {
    pub fn paths(&self) -> u128 {
        self.roots.iter().map(|&(_, paths)| paths).sum()
    }
}

/// Expands `root` to `plies` (>= 1), reporting each ply's count to `on_ply` as it completes
/// and handing the unique positions of the last ply, sorted by key, to `last_ply`.
pub fn expand(
    root: &Position,
    plies: u32,
    options: &ExpansionOptions,
    mut on_ply: impl FnMut(PlyCount),
    mut last_ply: impl FnMut(UniquePosition) -> Result<(), UniqueError>,
) -> Result<Vec<PlyCount>, UniqueError> {
    if plies == 0 {
        return Err(UniqueError::NoPlies);
    }
    let mut scratch = Scratch::create(&options.scratch_parent)
        .map_err(|e| UniqueError::io(&options.scratch_parent, e))?;
    let mut counts = Vec::new();
    let mut previous: Option<PathBuf> = None;
    let budget = Budget::of(options.memory_bytes);
    let interrupted = options.interrupted;
    let check = |handled: u64| {
        if handled.is_multiple_of(CHECK_EVERY) && interrupted() {
            Err(UniqueError::Interrupted)
        } else {
            Ok(())
        }
    };
    for ply in 1..=plies {
        let mut sorter = Sorter::new(budget, interrupted);
        match &previous {
            None => {
                // A position has at most 218 legal moves: the index fits a byte.
                for (index, &m) in legal_moves(root).iter().enumerate() {
                    let root_index = if options.by_root_move { index as u8 } else { 0 };
                    let key = NybbleBoard::from_position(&root.play(m));
                    sorter.push(Entry::new(key, root_index, 1), &mut scratch)?;
                }
            }
            Some(path) => push_children(path, budget, &check, &mut sorter, &mut scratch)?,
        }
        let mut sorted = sorter.finish(&mut scratch)?;
        let mut count = PlyCount {
            ply,
            unique: 0,
            paths: 0,
        };
        if ply == plies {
            for_each_position(&mut sorted, |position| {
                count.unique += 1;
                count.paths += position.paths();
                check(count.unique)?;
                last_ply(position)
            })?;
        } else {
            let path = scratch.file(&format!("ply{ply}"));
            let file = File::create(&path).map_err(|e| UniqueError::io(&path, e))?;
            let mut out = BufWriter::with_capacity(budget.io_buffer, file);
            let mut last_key = None;
            while let Some(entry) = sorted.next_entry()? {
                if last_key != Some(entry.key) {
                    count.unique += 1;
                    last_key = Some(entry.key);
                    check(count.unique)?;
                }
                count.paths += entry.paths();
                entry
                    .write_to(&mut out)
                    .map_err(|e| UniqueError::io(&path, e))?;
            }
            out.flush().map_err(|e| UniqueError::io(&path, e))?;
            if let Some(done) = previous.replace(path) {
                let _ = std::fs::remove_file(done);
            }
        }
        drop(sorted);
        on_ply(count);
        counts.push(count);
    }
    Ok(counts)
}

/// Hands `visit` each position of `sorted` with the paths of all its entries.
fn for_each_position(
    sorted: &mut SortedEntries,
    mut visit: impl FnMut(UniquePosition) -> Result<(), UniqueError>,
) -> Result<(), UniqueError> {
    let mut current: Option<UniquePosition> = None;
    while let Some(entry) = sorted.next_entry()? {
        match &mut current {
            Some(position) if position.key.planes == entry.key => {
                position.roots.push((entry.root, entry.paths()));
            }
            _ => {
                if let Some(done) = current.take() {
                    visit(done)?;
                }
                current = Some(UniquePosition {
                    key: entry.board(),
                    roots: vec![(entry.root, entry.paths())],
                });
            }
        }
    }
    match current {
        Some(done) => visit(done),
        None => Ok(()),
    }
}

/// Pushes the children of every position of the ply file at `path`, each with its parent's
/// paths per root move; `check` is told how many positions were handled.
fn push_children(
    path: &Path,
    budget: Budget,
    check: &impl Fn(u64) -> Result<(), UniqueError>,
    sorter: &mut Sorter,
    scratch: &mut Scratch,
) -> Result<(), UniqueError> {
    let file = File::open(path).map_err(|e| UniqueError::io(path, e))?;
    let mut input = BufReader::with_capacity(budget.io_buffer, file);
    let mut parent: Vec<Entry> = Vec::new();
    let mut parents = 0u64;
    loop {
        let next = Entry::read_from(&mut input).map_err(|e| UniqueError::io(path, e))?;
        let new_position = match (&next, parent.first()) {
            (Some(entry), Some(first)) => entry.key != first.key,
            (None, Some(_)) => true,
            (_, None) => false,
        };
        if new_position {
            parents += 1;
            check(parents)?;
            let position = parent[0]
                .board()
                .to_position()
                .map_err(|e| UniqueError::BadKey(e.to_string()))?;
            for &m in legal_moves(&position).iter() {
                let key = NybbleBoard::from_position(&position.play(m));
                for entry in &parent {
                    sorter.push(Entry::new(key, entry.root, entry.paths()), scratch)?;
                }
            }
            parent.clear();
        }
        match next {
            Some(entry) => parent.push(entry),
            None => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::perft;

    fn options(memory_bytes: usize, by_root_move: bool) -> ExpansionOptions {
        ExpansionOptions {
            memory_bytes,
            scratch_parent: std::env::temp_dir(),
            by_root_move,
            interrupted: never_interrupted,
        }
    }

    /// OEIS A083276 and perft to ply 4, the same with a budget that spills every ply.
    #[test]
    fn start_position_plies_match_a083276() {
        for memory_bytes in [64 << 20, 0] {
            let mut last = Vec::new();
            let counts = expand(
                &Position::startpos(),
                4,
                &options(memory_bytes, false),
                |_| {},
                |p| {
                    last.push(p);
                    Ok(())
                },
            )
            .expect("expanded");
            let unique: Vec<u64> = counts.iter().map(|c| c.unique).collect();
            assert_eq!(unique, [20, 400, 5_362, 72_078]);
            let paths: Vec<u128> = counts.iter().map(|c| c.paths).collect();
            assert_eq!(paths, [20, 400, 8_902, 197_281]);
            assert_eq!(last.len(), 72_078);
            assert!(last.windows(2).all(|w| w[0].key.planes < w[1].key.planes));
            assert!(last.iter().all(|p| p.roots == [(0, p.paths())]));
        }
    }

    /// The unique positions and their paths per root move are those of the host plan's
    /// transposition merge (a separate code path: a hash map of NybbleBoard keys).
    #[test]
    fn positions_and_paths_equal_the_merged_host_plan() {
        use crate::backend::plan::Plan;
        use std::collections::BTreeMap;
        use std::sync::atomic::AtomicBool;
        for fen in [
            crate::chess::fen::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/R3K2R w KQkq c6 0 1",
        ] {
            let root = Position::from_fen(fen).expect("valid FEN");
            for plies in 1..=3 {
                let never = AtomicBool::new(false);
                let mut plan =
                    Plan::expand(&root, plies + 1, usize::MAX, &never, |_, left| left > 1)
                        .expect("not cancelled");
                plan.merge_transpositions(&never).expect("not cancelled");
                let expected: BTreeMap<[u64; 4], Vec<(u8, u128)>> = plan
                    .items
                    .iter()
                    .map(|item| {
                        let mut roots: Vec<(u8, u128)> =
                            item.roots.iter().map(|r| (r.root as u8, r.paths)).collect();
                        roots.sort_unstable();
                        (NybbleBoard::from_position(&item.position).planes, roots)
                    })
                    .collect();
                let mut got = BTreeMap::new();
                expand(
                    &root,
                    plies,
                    &options(0, true),
                    |_| {},
                    |p| {
                        got.insert(p.key.planes, p.roots);
                        Ok(())
                    },
                )
                .expect("expanded");
                assert_eq!(got, expected, "{fen}, {plies} plies");
            }
        }
    }

    /// Per root move, the paths of every unique position times its perft give the divide.
    #[test]
    fn paths_by_root_move_give_the_divide() {
        let root = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid FEN");
        let moves = legal_moves(&root);
        let mut divide = vec![0u128; moves.len()];
        expand(
            &root,
            2,
            &options(0, true),
            |_| {},
            |p| {
                let position = p.key.to_position().expect("a valid key");
                let below = perft::perft(&position, 1);
                for (index, paths) in p.roots {
                    divide[usize::from(index)] += paths * below;
                }
                Ok(())
            },
        )
        .expect("expanded");
        for (index, &m) in moves.iter().enumerate() {
            assert_eq!(divide[index], perft::perft(&root.play(m), 2), "{m}");
        }
    }
}
