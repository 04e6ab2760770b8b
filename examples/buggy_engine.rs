//! A chess engine with a bug you choose, for testing `vkperft hunt`: it speaks UCI (`go perft N`
//! with Stockfish's divide) and perftree's script interface, and counts with vkperft's move
//! generator minus (or plus) one kind of move.
//!
//! ```text
//! buggy_engine [--bug BUG [--at PLACEMENT]]                      # UCI on stdin/stdout
//! buggy_engine [--bug BUG [--at PLACEMENT]] DEPTH FEN [MOVES]    # one perftree request
//! ```
//!
//! Move-generation bugs: `none`, `no-en-passant`, `no-underpromotion`, `castle-through-check`
//! (castling while the king passes an attacked square), `pinned-knight` (a pinned knight
//! moves), `rook-shield` (a Chess960 castle whose own rook shielded the king's target square
//! along the back rank). Failures: `hang` (never answers `go perft`), `crash` (exits on `go
//! perft`), `garbage` (prints a line that is no divide); with `--at PLACEMENT` (a FEN's first
//! field) a failure strikes only when asked for that position, and every other answer is right,
//! as for a suite whose engine fails on one position. Over UCI it takes `UCI_Chess960` and
//! then writes castles king-to-rook, as Stockfish does.

use std::io::{BufRead, Write};
use vkperft::chess::attacks;
use vkperft::chess::movegen::legal_moves;
use vkperft::chess::{uci, CastlingNotation, Move, MoveKind, Position, Role};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    None,
    NoEnPassant,
    NoUnderpromotion,
    CastleThroughCheck,
    PinnedKnight,
    RookShield,
    Hang,
    Crash,
    Garbage,
}

impl Bug {
    fn parse(name: &str) -> Option<Bug> {
        Some(match name {
            "none" => Bug::None,
            "no-en-passant" => Bug::NoEnPassant,
            "no-underpromotion" => Bug::NoUnderpromotion,
            "castle-through-check" => Bug::CastleThroughCheck,
            "pinned-knight" => Bug::PinnedKnight,
            "rook-shield" => Bug::RookShield,
            "hang" => Bug::Hang,
            "crash" => Bug::Crash,
            "garbage" => Bug::Garbage,
            _ => return None,
        })
    }
}

/// The moves this engine believes are legal.
fn moves(pos: &Position, bug: Bug) -> Vec<Move> {
    let mut moves: Vec<Move> = legal_moves(pos).iter().copied().collect();
    match bug {
        Bug::NoEnPassant => moves.retain(|m| m.kind() != MoveKind::EnPassant),
        Bug::NoUnderpromotion => {
            moves.retain(|m| m.kind().promotion().is_none() || m.kind() == MoveKind::PromoteQueen)
        }
        Bug::CastleThroughCheck => moves.extend(castles_through_check(pos)),
        Bug::RookShield => moves.extend(castles_into_a_shielded_check(pos)),
        Bug::PinnedKnight => moves.extend(pinned_knight_moves(pos, &moves)),
        _ => {}
    }
    moves
}

/// Castling moves that are illegal only because the square the king passes is attacked.
fn castles_through_check(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let them = !us;
    let occupied = pos.occupied();
    if pos.is_in_check(us) {
        return Vec::new();
    }
    let chess960 = pos.notation().is_chess960();
    [true, false]
        .into_iter()
        .filter_map(|king_side| pos.castling_squares(us, king_side))
        .filter_map(|squares| {
            let passed = attacks::between(squares.king_from, squares.king_to);
            let passed_attacked = passed
                .into_iter()
                .any(|sq| pos.is_attacked_by(sq, them, occupied));
            let clear = (squares.must_be_empty() & occupied).is_empty();
            let lands_safe = !pos.is_attacked_by(squares.king_to, them, occupied);
            (clear && lands_safe && passed_attacked)
                .then(|| Move::castle(squares.king_from, squares.rook_from, chess960))
        })
        .collect()
}

/// Castles that are illegal only because the castling rook stood between the king's target and
/// an enemy rook or queen on the back rank: the squares are empty and the king's path is not
/// attacked with the rook still in place.
fn castles_into_a_shielded_check(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let them = !us;
    let occupied = pos.occupied();
    if pos.is_in_check(us) {
        return Vec::new();
    }
    let legal = legal_moves(pos);
    let chess960 = pos.notation().is_chess960();
    [true, false]
        .into_iter()
        .filter_map(|king_side| pos.castling_squares(us, king_side))
        .filter(|squares| {
            (squares.must_be_empty() & occupied).is_empty()
                && !squares
                    .king_path()
                    .into_iter()
                    .any(|sq| pos.is_attacked_by(sq, them, occupied))
        })
        .map(|squares| Move::castle(squares.king_from, squares.rook_from, chess960))
        .filter(|m| !legal.as_slice().contains(m))
        .collect()
}

/// Out of check, a knight move that is not legal is one of a pinned knight.
fn pinned_knight_moves(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let us = pos.turn();
    if pos.is_in_check(us) {
        return Vec::new();
    }
    let ours = pos.by_color(us);
    let their_king = pos.king(!us);
    pos.pieces(us, Role::Knight)
        .into_iter()
        .flat_map(|from| {
            attacks::knight(from)
                .into_iter()
                .filter(move |&to| !ours.contains(to) && to != their_king)
                .map(move |to| Move::new(from, to, MoveKind::Normal))
        })
        .filter(|m| !legal.contains(m))
        .collect()
}

fn perft(pos: &Position, depth: u32, bug: Bug) -> u128 {
    let moves = moves(pos, bug);
    if depth <= 1 {
        return moves.len() as u128;
    }
    moves
        .iter()
        .map(|&m| perft(&pos.play(m), depth - 1, bug))
        .sum()
}

/// The bug that strikes at `pos`: a failure only at the placement `at` names, if it names one.
fn bug_at(bug: Bug, at: Option<&str>, pos: &Position) -> Bug {
    let failure = matches!(bug, Bug::Hang | Bug::Crash | Bug::Garbage);
    match at {
        Some(placement) if failure && pos.to_fen().split(' ').next() != Some(placement) => {
            Bug::None
        }
        _ => bug,
    }
}

/// The divide of `pos` in the format of `separator` (`": "` for UCI, `" "` for perftree), or
/// what the failure bugs do instead.
fn answer(pos: &Position, depth: u32, bug: Bug, separator: &str) -> String {
    match bug {
        Bug::Hang => loop {
            std::thread::park();
        },
        Bug::Crash => std::process::exit(3),
        _ => {}
    }
    let mut text = String::new();
    if bug == Bug::Garbage {
        text.push_str("@@ not a divide @@\n");
    }
    let mut total = 0;
    for m in moves(pos, bug) {
        let count = if depth <= 1 {
            1
        } else {
            perft(&pos.play(m), depth - 1, bug)
        };
        total += count;
        text.push_str(&format!("{m}{separator}{count}\n"));
    }
    text + &if separator == " " {
        format!("\n{total}\n")
    } else {
        format!("\nNodes searched: {total}\n\n")
    }
}

/// `position fen F [moves ...]` or `position startpos [moves ...]`; castles written king-to-rook
/// when `chess960`.
fn parse_position(line: &str, chess960: bool) -> Option<Position> {
    let rest = line.strip_prefix("position")?.trim();
    let (base, moves) = match rest.split_once(" moves ") {
        Some((base, moves)) => (base.trim(), moves),
        None => (rest.trim_end_matches(" moves"), ""),
    };
    let mut start = if base == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(base.strip_prefix("fen")?.trim()).ok()?
    };
    if chess960 {
        start = start.with_notation(CastlingNotation::Shredder);
    }
    uci::play_moves(&start, moves.split_whitespace()).ok()
}

fn uci_loop(bug: Bug, at: Option<&str>) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut position = Position::startpos();
    let mut chess960 = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
        let reply = match line {
            "uci" => {
                "id name buggy_engine\noption name UCI_Chess960 type check default false\nuciok\n"
                    .to_string()
            }
            "isready" => "readyok\n".to_string(),
            "quit" => return,
            "setoption name UCI_Chess960 value true" => {
                chess960 = true;
                continue;
            }
            _ if line.starts_with("position") => {
                position = parse_position(line, chess960).unwrap_or(position);
                continue;
            }
            _ if line.starts_with("go perft") => {
                let depth = line["go perft".len()..].trim().parse().unwrap_or(1);
                answer(&position, depth, bug_at(bug, at, &position), ": ")
            }
            _ => continue,
        };
        if out
            .write_all(reply.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut bug = Bug::None;
    if args.first().map(String::as_str) == Some("--bug") {
        let Some(parsed) = args.get(1).and_then(|name| Bug::parse(name)) else {
            eprintln!("buggy_engine: --bug takes none, no-en-passant, no-underpromotion, castle-through-check, pinned-knight, rook-shield, hang, crash or garbage");
            std::process::exit(2);
        };
        bug = parsed;
        args.drain(..2);
    }
    let mut at = None;
    if args.first().map(String::as_str) == Some("--at") {
        let Some(placement) = args.get(1).cloned() else {
            eprintln!("buggy_engine: --at takes a FEN's placement field");
            std::process::exit(2);
        };
        at = Some(placement);
        args.drain(..2);
    }
    vkperft::chess::attacks::init();
    if args.is_empty() {
        uci_loop(bug, at.as_deref());
        return;
    }
    let depth: u32 = args[0].parse().unwrap_or(1);
    let start = args.get(1).and_then(|fen| Position::from_fen(fen).ok());
    let moves = args.get(2).map_or("", String::as_str);
    let Some(position) =
        start.and_then(|start| uci::play_moves(&start, moves.split_whitespace()).ok())
    else {
        eprintln!("buggy_engine: expected DEPTH FEN [MOVES]");
        std::process::exit(2);
    };
    print!(
        "{}",
        answer(&position, depth, bug_at(bug, at.as_deref(), &position), " ")
    );
}
