//! Helpers shared by the integration tests: seeded random walks and a silent `RunControl`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;
use vkperft::backend::run_control::{ProgressSample, RunControl};
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{Move, MoveKind, Position, Square, Zobrist};
use vkperft::count::Counts;
use vkperft::cpu::parallel::divide;
use vkperft::cpu::search::{PlainSearch, TtSearch};
use vkperft::gpu::{GpuOptions, VulkanBackend};
use vkperft::reference;
use vkperft::tt::{
    bucket_bytes, slot_bytes, ways, TranspositionTable, TtConfig, TtCounters, TtMode,
    TtStatsSnapshot,
};

/// Every subcommand but the window's.
pub const SCRIPTED_SUBCOMMANDS: [&str; 11] = [
    "perft",
    "perftree",
    "hunt",
    "suite",
    "bench",
    "devices",
    "shader-stats",
    "work",
    "unique",
    "completions",
    "man",
];

/// Positions rich in what move generators get wrong: promotions (with capture and
/// underpromotion), castling with attacked squares, en passant (pins along the rank, checks),
/// double checks, discovered checks and pins. All are legal; walks start from them.
pub const SHARP_FENS: &[&str] = &[
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "r3k2r/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/R3K2R w KQkq c6 0 1",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "r1bqk2r/pPpp1ppp/2n2n2/4p3/1bB1P3/2N2N2/P1PP1pPP/R1BQK2R w KQkq - 0 1",
    "R3r1k1/8/8/8/8/Q2n4/8/4K3 w - - 0 1",
];

/// Chess960 positions (Shredder-FEN) where castling is where generators break: the king that
/// does not move, the rook that jumps over the king, the king landing where its rook stood,
/// an inner rook holding the right beside an outer one, and the rook that shields the king's
/// target along the back rank (king d1, rook b1, their rook a1: castling is illegal).
pub const CHESS960_SHARP_FENS: &[&str] = &[
    "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",
    "4k3/8/8/8/8/8/8/6KR w H - 0 1",
    "4k3/8/8/8/8/8/8/1KR5 w C - 0 1",
    "r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1",
    "1r2k1rr/ppppppp1/8/8/8/8/1PPPPPPP/1R2K1RR w GBgb - 0 1",
    "rk4r1/pppq1ppp/8/8/8/8/PPP1QPPP/RK4R1 b GAga - 0 1",
    "2r1kr2/8/8/3b4/8/8/8/2R1KR2 w FCfc - 0 1",
    "1rk4r/8/8/8/8/8/8/1RK1r2R w HB - 0 1",
];

/// Kiwipete with a black queen checking from e2: three replies, then about 45 moves a ply. Its
/// narrow root makes the GPU's launch depth (estimated from the root's branching) too deep for a
/// small budget, so its items overflow and are split on the host.
pub const NARROW_ROOT_FEN: &str =
    "r3k2r/p1pp1pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBqPPP/R3K2R w KQkq - 0 1";

/// The published positions followed by [`SHARP_FENS`].
pub fn start_positions() -> Vec<Position> {
    reference::positions()
        .into_iter()
        .map(|(_, fen)| fen)
        .chain(SHARP_FENS.iter().copied())
        .map(|fen| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect()
}

/// How much a walk should prefer `m`: 2 for the rare moves (promotion, castling, en passant,
/// double check, a double push that leaves a legal ep capture), 1 for captures and checks, 0
/// otherwise. A uniform walk would seldom reach the positions these moves create.
pub fn sharpness(pos: &Position, m: Move, child: &Position) -> u8 {
    let checkers = child.checkers().count();
    if !matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush)
        || checkers > 1
        || child.ep_square().is_some()
    {
        2
    } else if checkers == 1 || pos.by_color(!pos.turn()).contains(m.to()) {
        1
    } else {
        0
    }
}

/// Walks up to `plies` random legal moves from `start` (which must have legal moves), calling
/// `visit(parent, move, child)` for each, and returns the last position reached. With
/// probability `sharp_percent` a move is drawn among the sharpest ones (see [`sharpness`]) when
/// some move is sharp. Stops early before a position without legal moves, so the result always
/// has moves.
pub fn walk(
    rng: &mut SplitMix64,
    start: &Position,
    plies: usize,
    sharp_percent: u64,
    mut visit: impl FnMut(&Position, Move, &Position),
) -> Position {
    let mut pos = *start;
    for _ in 0..plies {
        let children: Vec<(Move, Position)> = legal_moves(&pos)
            .iter()
            .map(|&m| (m, pos.play(m)))
            .collect();
        let best = children
            .iter()
            .map(|(m, child)| sharpness(&pos, *m, child))
            .max()
            .unwrap_or(0);
        let (m, child) = if best > 0 && rng.below(100) < sharp_percent {
            let sharp: Vec<&(Move, Position)> = children
                .iter()
                .filter(|(m, child)| sharpness(&pos, *m, child) == best)
                .collect();
            *sharp[rng.below(sharp.len() as u64) as usize]
        } else {
            children[rng.below(children.len() as u64) as usize]
        };
        if legal_moves(&child).is_empty() {
            break;
        }
        visit(&pos, m, &child);
        pos = child;
    }
    pos
}

/// `count` positions from fresh walks of 0..=`max_plies` plies, each from a random start
/// position with a random bias toward sharp moves. A walk yields its last position, or half the
/// time one it passed that allows en passant or is in double check when there is one: walks
/// leave such positions at once, so their ends alone would rarely be one.
pub fn random_positions(seed: u64, count: usize, max_plies: usize) -> Vec<Position> {
    sample_walks(&start_positions(), seed, count, max_plies, |child| {
        child.ep_square().is_some() || child.checkers().count() > 1
    })
}

/// `count` Chess960 positions from fresh walks of 0..=`max_plies` plies, each from a random
/// start position (or one of [`CHESS960_SHARP_FENS`]). A walk yields its last position, or half
/// the time one it passed where a castle is legal: walks that prefer sharp moves castle at once,
/// so their ends alone would seldom offer one. Castles are written in Chess960 notation, also
/// from the start positions whose king and rooks stand where standard chess has them.
pub fn random_chess960_positions(seed: u64, count: usize, max_plies: usize) -> Vec<Position> {
    let starts: Vec<Position> = reference::chess960::start_positions()
        .iter()
        .map(|start| start.shredder_fen)
        .chain(CHESS960_SHARP_FENS.iter().copied())
        .map(|fen| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect();
    sample_walks(&starts, seed, count, max_plies, |child| {
        legal_moves(child)
            .iter()
            .any(|m| m.kind() == MoveKind::Castle)
    })
}

/// `count` walks from random `starts`, each yielding its last position or, half the time, one
/// it passed for which `rare` holds.
fn sample_walks(
    starts: &[Position],
    seed: u64,
    count: usize,
    max_plies: usize,
    rare: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let start = starts[rng.below(starts.len() as u64) as usize];
            let plies = rng.below(max_plies as u64 + 1) as usize;
            let sharp_percent = [0, 50, 90][rng.below(3) as usize];
            let mut passed = Vec::new();
            let end = walk(&mut rng, &start, plies, sharp_percent, |_, _, child| {
                if rare(child) {
                    passed.push(*child);
                }
            });
            if !passed.is_empty() && rng.below(2) == 0 {
                passed[rng.below(passed.len() as u64) as usize]
            } else {
                end
            }
        })
        .collect()
}

/// shakmaty's reading of `fen` in `mode`: the independent implementation the differential
/// tests compare with.
pub fn shakmaty_position(fen: &str, mode: shakmaty::CastlingMode) -> shakmaty::Chess {
    let parsed: shakmaty::fen::Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"));
    parsed
        .into_position(mode)
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"))
}

/// shakmaty's divide, its moves in UCI as `mode` writes them.
pub fn shakmaty_divide(
    pos: &shakmaty::Chess,
    depth: u32,
    mode: shakmaty::CastlingMode,
) -> BTreeMap<String, u128> {
    use shakmaty::Position as _;
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (
                m.to_uci(mode).to_string(),
                u128::from(shakmaty::perft(&child, depth - 1)),
            )
        })
        .collect()
}

/// A published position by its name in the reference table.
pub fn position(name: &str) -> Position {
    let fen = vkperft::reference::positions()
        .into_iter()
        .find(|&(n, _)| n == name)
        .map(|(_, fen)| fen)
        .unwrap_or_else(|| panic!("no reference position {name}"));
    Position::from_fen(fen).expect("published FEN")
}

pub fn config(mode: TtMode, bytes: usize, verifier_bits: u32) -> TtConfig {
    TtConfig {
        mode,
        bytes,
        verifier_bits,
        move_stats: false,
    }
}

pub fn nodes(divide: &[(Move, Counts)]) -> Vec<(Move, u128)> {
    divide.iter().map(|&(m, c)| (m, c.nodes)).collect()
}

pub fn fast_nodes(divide: &[(Move, Counts)]) -> Vec<(Move, u128)> {
    divide.iter().map(|&(m, c)| (m, c.fast_nodes)).collect()
}

pub fn total_nodes(divide: &[(Move, Counts)]) -> u128 {
    divide.iter().map(|&(_, c)| c.nodes).sum()
}

pub fn total_fast_nodes(divide: &[(Move, Counts)]) -> u128 {
    divide.iter().map(|&(_, c)| c.fast_nodes).sum()
}

/// Every statistics invariant that holds whatever the search did.
pub fn assert_consistent(stats: &TtStatsSnapshot, config: &TtConfig, depth: u32) {
    let total = &stats.total;
    let context = format!("{config:?}: {stats:?}");
    assert_eq!(stats.mode, config.mode, "{context}");
    assert_eq!(stats.verifier_bits, config.verifier_bits, "{context}");
    let per_slot = slot_bytes(config.mode).expect("a mode with a table") as u64;
    let per_bucket = bucket_bytes(config.mode).expect("a mode with a table") as u64;
    let ways = ways(config.mode).expect("a mode with a table") as u64;
    // A 64-byte line of a split fast table holds two compact buckets of four entries instead
    // of one fast bucket of four: each compact line adds four slots.
    let compact_lines = stats.compact_slots / 8;
    if stats.compact_slots != 0 {
        assert_eq!(config.mode, TtMode::Fast, "{context}");
        assert_eq!(stats.compact_slots % 8, 0, "{context}");
    }
    assert_eq!(
        stats.slots,
        config.bytes as u64 / per_bucket * ways + 4 * compact_lines,
        "{context}"
    );
    assert_eq!(
        stats.bytes,
        (stats.slots - 4 * compact_lines) * per_slot,
        "{context}"
    );

    for counts in stats.per_depth.iter().map(|d| &d.counts).chain([total]) {
        assert_eq!(counts.probes, counts.hits + counts.misses, "{context}");
        assert!(counts.stores >= counts.overwrites, "{context}");
        assert!(counts.used_slots <= stats.slots, "{context}");
        assert!((0.0..=1.0).contains(&counts.occupancy), "{context}");
        assert_eq!(
            counts.occupancy,
            counts.used_slots as f64 / stats.slots as f64,
            "{context}"
        );
        // A probe compares with every entry of its bucket (a compact one holds as many).
        let ways = ways as u64;
        assert!(
            counts.wrong_occupied_probes <= counts.probes * ways,
            "{context}"
        );
        assert!(counts.false_hits <= counts.misses, "{context}");
        if config.mode != TtMode::Certify {
            assert_eq!(counts.false_hits, 0, "{context}");
        }
    }

    // Shallowest first, each depth once, and only depths the search probes: the driver's tasks
    // are at most `depth - 1` deep, and depth-1 subtrees are counted without the table.
    let depths: Vec<u32> = stats.per_depth.iter().map(|d| d.depth).collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{context}");
    assert!(depths.iter().all(|d| (2..depth).contains(d)), "{context}");

    let sum = |field: fn(&TtCounters) -> u64| -> u64 {
        stats.per_depth.iter().map(|d| field(&d.counts)).sum()
    };
    assert_eq!(sum(|c| c.probes), total.probes, "{context}");
    assert_eq!(sum(|c| c.hits), total.hits, "{context}");
    assert_eq!(sum(|c| c.misses), total.misses, "{context}");
    assert_eq!(sum(|c| c.stores), total.stores, "{context}");
    assert_eq!(sum(|c| c.overwrites), total.overwrites, "{context}");
    assert_eq!(sum(|c| c.used_slots), total.used_slots, "{context}");
    assert_eq!(
        sum(|c| c.wrong_occupied_probes),
        total.wrong_occupied_probes,
        "{context}"
    );
    assert_eq!(sum(|c| c.false_hits), total.false_hits, "{context}");
    assert_eq!(sum(|c| c.payload_skips), total.payload_skips, "{context}");
}

/// Nodes per root move, by UCI notation: divides in any move order compare equal.
pub fn nodes_by_move(divide: &[(Move, Counts)]) -> BTreeMap<String, u128> {
    divide
        .iter()
        .map(|(m, c)| (m.to_string(), c.nodes))
        .collect()
}

/// One Vulkan backend for the whole test binary: opening a device and building pipelines is
/// slow, and tests in one binary run on several threads.
pub fn shared_vulkan_backend() -> MutexGuard<'static, VulkanBackend> {
    static BACKEND: OnceLock<Mutex<VulkanBackend>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            let backend = VulkanBackend::new(&GpuOptions::default()).unwrap_or_else(|err| {
                panic!("no usable Vulkan device ({err}); install mesa-vulkan-drivers")
            });
            Mutex::new(backend)
        })
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

static NEVER_CANCEL: AtomicBool = AtomicBool::new(false);

fn ignore_progress(_: ProgressSample) {}

fn ignore_root_done(_: Move, _: Counts) {}

/// A run that is never cancelled and reports nothing.
pub fn silent_control() -> RunControl<'static> {
    RunControl {
        cancel: &NEVER_CANCEL,
        progress_interval: Duration::from_secs(3600),
        on_progress: &ignore_progress,
        on_root_done: &ignore_root_done,
    }
}

/// The divide of `pos` through the given table mode, as the engine runs it, and the table's
/// statistics (`None` for `off`).
pub fn tt_divide(
    pos: &Position,
    depth: u32,
    threads: usize,
    config: &TtConfig,
    zobrist: &Zobrist,
) -> (Vec<(Move, Counts)>, Option<TtStatsSnapshot>) {
    let control = silent_control();
    if config.mode == TtMode::Off {
        let counts = divide(pos, depth, threads, &PlainSearch, zobrist, &control);
        return (counts.expect("never cancelled"), None);
    }
    let table = TranspositionTable::new(config).expect("the test table fits");
    let search = TtSearch {
        table: &table,
        zobrist,
    };
    let counts = divide(pos, depth, threads, &search, zobrist, &control);
    (counts.expect("never cancelled"), Some(table.snapshot()))
}

/// What one run of the `vkperft` binary printed and returned.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A shell script (run as `sh script`) standing in for a wrapper around an engine: it starts
/// `child` in the background, writes its pid to the second path returned, then runs `body`.
pub fn script_with_child(name: &str, child: &str, body: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("vkperft-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let pid_file = dir.join("child.pid");
    let script = dir.join("wrapper.sh");
    let text = format!(
        "#!/bin/sh\n{child} &\necho $! > '{}'\n{body}\n",
        pid_file.display()
    );
    std::fs::write(&script, text).expect("the script is written");
    (script, pid_file)
}

/// Asserts that the child a [`script_with_child`] script started has ended within 30 s (gone,
/// or a zombie its new parent has yet to reap), and removes the script's folder. The children
/// sleep far longer, so the bound only tells a killed child from one left running, even on a
/// busy machine.
pub fn assert_child_ended(pid_file: &Path) {
    let pid = std::fs::read_to_string(pid_file).expect("the script started its child");
    let _ = std::fs::remove_dir_all(pid_file.parent().expect("the script's folder"));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let ended =
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).map_or(true, |stat| {
                stat.rsplit(')')
                    .next()
                    .is_some_and(|rest| rest.trim_start().starts_with('Z'))
            });
        if ended {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the script's child (pid {}) still runs",
            pid.trim()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the binary with `args` and extra environment variables; no run may panic, whatever its
/// arguments.
pub fn run_vkperft(args: &[&str], env: &[(&str, &str)]) -> Run {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("the binary starts");
    let run = Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    };
    assert!(
        !run.stdout.contains("panicked") && !run.stderr.contains("panicked"),
        "{args:?} panicked: {}",
        run.stderr
    );
    run
}

/// `pos` with the turn passed: no en passant square, the same castling rights.
pub fn passed(pos: &Position) -> Position {
    let mut setup = pos.to_setup();
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Position::from_setup(&setup).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()))
}

/// The legal move of `pos` from `from` to `to` (for moves that never promote: one at most).
pub fn legal_move(pos: &Position, from: Square, to: Square) -> Move {
    let found: Vec<Move> = legal_moves(pos)
        .iter()
        .copied()
        .filter(|m| m.from() == from && m.to() == to)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{}: {from}{to} is not one legal move",
        pos.to_fen()
    );
    found[0]
}
