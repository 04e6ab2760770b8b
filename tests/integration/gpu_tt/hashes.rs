//! The shaders' TT hashes against the CPU's Zobrist hashes: from scratch and incremental.

use super::*;

/// The shaders' TT hash is the CPU's `Zobrist::hash ^ depth_key`, for several seeds and depths.
#[test]
fn gpu_hashes_equal_the_cpu_zobrist_hashes() {
    let mut gpu = backend();
    let mut positions = random_positions(0x6861_7368, 500, 40);
    positions.extend(random_chess960_positions(0x6861_7369, 200, 30));
    let boards: Vec<GpuBoard> = positions
        .iter()
        .map(|pos| NybbleBoard::from_position(pos).into())
        .collect();
    for (seed, depth) in [(1, 2), (0x766b, 7), (u64::MAX, 63), (42, 64)] {
        let zobrist = Zobrist::new(seed);
        let hashes = gpu
            .runner_mut()
            .key_hashes(&zobrist, &boards, depth)
            .expect("the key probe runs");
        for (pos, hash) in positions.iter().zip(hashes) {
            assert_eq!(
                hash,
                zobrist.hash(pos) ^ zobrist.depth_key(depth),
                "seed {seed:#x}, depth {depth}: {}",
                pos.to_fen()
            );
        }
    }
}

/// The hash an expand hands each child (from its parent's and the move's changes) is the CPU's
/// hash of the child: pieces moved, captured, promoted and castled, castling rights and en
/// passant squares won and lost.
#[test]
fn incremental_child_hashes_equal_the_cpu_zobrist_hashes() {
    let mut gpu = backend();
    let mut positions = random_positions(0x6368_696c, 150, 60);
    positions.extend(random_chess960_positions(0x6368_6960, 60, 30));
    for fen in CHESS960_SHARP_FENS.iter().chain(&[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]) {
        positions.push(Position::from_fen(fen).expect("a test FEN"));
    }
    let zobrist = Zobrist::new(0x766b);
    let mut children_seen = 0;
    for pos in &positions {
        for depth in [2, 5] {
            let board = NybbleBoard::from_position(pos).into();
            let children = gpu
                .runner_mut()
                .child_hashes(&zobrist, board, depth)
                .expect("the expand runs");
            let mut expected: Vec<GpuBoard> = legal_moves(pos)
                .iter()
                .map(|&m| NybbleBoard::from_position(&pos.play(m)).into())
                .collect();
            let mut written: Vec<GpuBoard> = children.iter().map(|&(board, _)| board).collect();
            expected.sort_by_key(|board| board.planes);
            written.sort_by_key(|board| board.planes);
            assert_eq!(written, expected, "children of {}", pos.to_fen());
            for (board, hash) in children {
                let child = NybbleBoard {
                    planes: board.planes,
                }
                .to_position()
                .expect("a legal child");
                assert_eq!(
                    hash,
                    zobrist.hash(&child) ^ zobrist.depth_key(depth - 1),
                    "{} after a move of {}",
                    child.to_fen(),
                    pos.to_fen()
                );
                children_seen += 1;
            }
        }
    }
    assert!(children_seen > 5_000, "{children_seen} children");
}
