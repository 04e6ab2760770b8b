//! The expansion against published counts, the host plan's transposition merge and a plain set
//! of the reference generator's positions, with budgets that force many partitions and
//! partitions that overflow; resuming a folder after an interruption.

use super::*;
use crate::chess::movegen::legal_moves;
use crate::chess::rng::SplitMix64;
use crate::chess::{perft, NybbleBoard, Position};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

fn options(memory_bytes: usize, threads: usize, by_root_move: bool) -> ExpansionOptions {
    ExpansionOptions {
        memory_bytes,
        threads,
        scratch_parent: std::env::temp_dir(),
        state_dir: None,
        by_root_move,
        keep_last_ply: false,
        interrupted: never_interrupted,
    }
}

/// The budget that leaves a set of `slots` entries of the kept plies.
fn budget_for(slots: usize, threads: usize) -> usize {
    expansion::buffer_bytes::<4>(threads) + slots * 32
}

fn counts(root: &Position, plies: u32, options: &ExpansionOptions) -> Vec<PlyCount> {
    expand(root, plies, options, |_| {}, None).expect("expanded")
}

/// OEIS A083276 and perft to ply 5 with a budget of one partition per ply, and to ply 4 with
/// one that needs dozens, on one thread and three.
#[test]
fn start_position_plies_match_a083276() {
    for (memory_bytes, threads, plies) in [(1 << 30, 1, 5), (0, 3, 4), (0, 1, 4)] {
        let got = counts(
            &Position::startpos(),
            plies,
            &options(memory_bytes, threads, false),
        );
        let unique: Vec<u64> = got.iter().map(|c| c.unique).collect();
        assert_eq!(unique, [20, 400, 5_362, 72_078, 822_518][..plies as usize]);
        let paths: Vec<u128> = got.iter().map(|c| c.paths).collect();
        assert_eq!(
            paths,
            [20, 400, 8_902, 197_281, 4_865_609][..plies as usize]
        );
        assert!(got.iter().all(|c| c.paths_checked));
        let passes = got.last().expect("plies").passes;
        if memory_bytes == 0 {
            assert!(passes > 20, "{passes} passes");
        } else {
            assert_eq!(passes, 1);
        }
    }
}

/// The unique positions of random positions (Chess960 among them) to ply 4, counted by a
/// plain set of the reference generator's NybbleBoards.
#[test]
fn random_positions_match_a_plain_set() {
    let mut rng = SplitMix64::new(21);
    let starts = [
        crate::chess::fen::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 1",
    ];
    for fen in starts {
        let mut root = Position::from_fen(fen).expect("valid FEN");
        for _ in 0..rng.below(6) {
            let moves = legal_moves(&root);
            if moves.is_empty() {
                break;
            }
            root = root.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        }
        let got = counts(&root, 4, &options(budget_for(3_000, 2), 2, false));
        assert_plain_set_counts(&root, &got);
    }
}

/// The counts of `got` (plies 1, 2, ... of `root`) are those of a plain set of the reference
/// generator's NybbleBoards, ply after ply, and its paths perft's.
fn assert_plain_set_counts(root: &Position, got: &[PlyCount]) {
    let mut ply: Vec<Position> = vec![*root];
    for count in got {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &ply {
            for &m in legal_moves(pos).iter() {
                let child = pos.play(m);
                if seen.insert(NybbleBoard::from_position(&child).planes) {
                    next.push(child);
                }
            }
        }
        assert_eq!(
            count.unique,
            seen.len() as u64,
            "{}: ply {}",
            root.to_fen(),
            count.ply
        );
        assert_eq!(
            count.paths,
            perft::perft(root, count.ply),
            "{}",
            root.to_fen()
        );
        ply = next;
    }
}

/// The same to ply 6, from random positions with few moves (so that a plain set of ply 6 stays
/// small: up to about a million positions), Chess960 castling and en passant among them, in
/// several partitions.
#[test]
fn random_endgames_to_ply_6_match_a_plain_set() {
    let mut rng = SplitMix64::new(6);
    let starts = [
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        // Chess960: both rooks on the b-file with their castling rights.
        "1r2k3/pp6/8/8/8/8/PP6/1R2K3 w Bb - 0 1",
        "8/8/8/1k6/3Pp3/8/6p1/4K2R b K d3 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    ];
    for fen in starts {
        let mut root = Position::from_fen(fen).expect("valid FEN");
        for _ in 0..rng.below(3) {
            let moves = legal_moves(&root);
            if moves.is_empty() {
                break;
            }
            root = root.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        }
        let got = counts(&root, 6, &options(budget_for(200_000, 2), 2, false));
        assert!(got[5].passes > 1, "{}: one partition", root.to_fen());
        assert_plain_set_counts(&root, &got);
    }
}

/// The unique positions and their paths per root move are those of the host plan's
/// transposition merge (a separate code path: a hash map of NybbleBoard keys), in key order.
#[test]
fn positions_and_paths_equal_the_merged_host_plan() {
    use crate::backend::plan::Plan;
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
            let mut plan = Plan::expand(&root, plies + 1, usize::MAX, &never, |_, left| left > 1)
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
            let mut keys = Vec::new();
            let mut visit = |p: UniquePosition| {
                keys.push(key::KeyCodec::get().pack(&p.key));
                got.insert(p.key.planes, p.roots);
                Ok(())
            };
            expand(
                &root,
                plies,
                &options(budget_for(200, 2), 2, true),
                |_| {},
                Some(&mut visit),
            )
            .expect("expanded");
            assert_eq!(got, expected, "{fen}, {plies} plies");
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "in key order");
        }
    }
}

/// Per root move, the paths of every unique position times its perft give the divide.
#[test]
fn paths_by_root_move_give_the_divide() {
    let root =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("valid FEN");
    let moves = legal_moves(&root);
    let mut divide = vec![0u128; moves.len()];
    let mut visit = |p: UniquePosition| {
        let position = p.key.to_position().expect("a valid key");
        let below = perft::perft(&position, 1);
        for (index, paths) in p.roots {
            divide[usize::from(index)] += paths * below;
        }
        Ok(())
    };
    expand(
        &root,
        2,
        &options(1 << 26, 2, true),
        |_| {},
        Some(&mut visit),
    )
    .expect("expanded");
    for (index, &m) in moves.iter().enumerate() {
        assert_eq!(divide[index], perft::perft(&root.play(m), 2), "{m}");
    }
}

static POLLS: AtomicU64 = AtomicU64::new(0);

/// Says "interrupted" from the 40th look on.
fn interrupted_after_a_while() -> bool {
    POLLS.fetch_add(1, Ordering::Relaxed) >= 40
}

/// A run stopped in the middle of a ply leaves its done ranges in the state folder; the next
/// run with the folder computes only the rest, and gets the same counts. A folder of another
/// root is refused, and a damaged positions file is found.
#[test]
fn a_stopped_run_resumes_from_its_folder() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("vkperft-unique-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut stopped = options(budget_for(20_000, 1), 1, false);
    stopped.state_dir = Some(dir.clone());
    stopped.interrupted = interrupted_after_a_while;
    let result = expand(&Position::startpos(), 5, &stopped, |_| {}, None);
    assert!(
        matches!(result, Err(UniqueError::Interrupted)),
        "{result:?}"
    );
    let ranges_done = |ply: u32| {
        std::fs::read_dir(dir.join(format!("ply-{ply:02}")))
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter(|e| e.path().extension() == Some("json".as_ref()))
                    .count()
            })
            .unwrap_or(0)
    };
    assert!(ranges_done(4) + ranges_done(5) > 0, "some ranges were done");

    let mut resumed = stopped.clone();
    resumed.interrupted = never_interrupted;
    let mut started = Vec::new();
    let got = expand(
        &Position::startpos(),
        5,
        &resumed,
        |p| {
            if let Progress::Ply { ply, resumed, .. } = p {
                started.push((ply, resumed));
            }
        },
        None,
    )
    .expect("resumed");
    let unique: Vec<u64> = got.iter().map(|c| c.unique).collect();
    assert_eq!(unique, [20, 400, 5_362, 72_078, 822_518]);
    assert!(started.iter().any(|&(_, share)| share > 0.0), "{started:?}");

    let other = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").expect("FEN");
    assert!(matches!(
        expand(&other, 2, &resumed, |_| {}, None),
        Err(UniqueError::OtherRun { .. })
    ));

    // Ply 4's positions stay (ply 5 was only counted); damage one and redo ply 5.
    let ply4 = dir.join("ply-04");
    let file = std::fs::read_dir(&ply4)
        .expect("ply 4")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension() == Some("bin".as_ref()))
        .expect("a positions file");
    let mut bytes = std::fs::read(&file).expect("readable");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&file, bytes).expect("written");
    std::fs::remove_dir_all(dir.join("ply-05")).expect("removed");
    let damaged = expand(&Position::startpos(), 5, &resumed, |_| {}, None);
    assert!(
        matches!(damaged, Err(UniqueError::Corrupt { .. })),
        "{damaged:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
