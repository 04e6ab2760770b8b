//! Positions that catch classic move generator bugs, with perft values checked against
//! Stockfish 15.1 (`go perft N`).

use crate::common;

use vkperft::chess::movegen::{count_legal, legal_moves};
use vkperft::chess::perft::perft;
use vkperft::chess::{uci, MoveKind, Position, Role, Zobrist};
use vkperft::cpu::parallel::divide;
use vkperft::cpu::search::PlainSearch;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Sorted UCI strings of the legal moves.
fn moves(pos: &Position) -> Vec<String> {
    let mut list: Vec<String> = legal_moves(pos).iter().map(|m| m.to_string()).collect();
    list.sort();
    list
}

/// Perft by the single-thread reference and by the parallel backend (2 threads).
fn assert_perft(fen: &str, depth: u32, expected: u128) {
    let pos = position(fen);
    assert_eq!(perft(&pos, depth), expected, "perft({depth}) of {fen}");
    let control = common::silent_control();
    let parallel = divide(&pos, depth, 2, &PlainSearch, &Zobrist::default(), &control)
        .expect("never cancelled");
    let total: u128 = parallel.iter().map(|(_, counts)| counts.nodes).sum();
    assert_eq!(total, expected, "parallel perft({depth}) of {fen}");
}

#[test]
fn en_passant_exposing_king_on_rank_is_illegal() {
    // bxc6 would take both pawns off the fifth rank and open it to the rook on h5.
    let fen = "8/8/8/KPp4r/8/8/8/7k w - c6 0 1";
    let pos = position(fen);
    assert_eq!(moves(&pos), ["a5a4", "a5a6", "a5b6", "b5b6"]);
    assert_perft(fen, 1, 4);
    assert_perft(fen, 5, 23591);
    // Black's c7c5 leading to the same trap must not leave an ep square either.
    assert_perft("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888);
    assert_perft("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133);
}

#[test]
fn useless_ep_square_is_canonicalized_away() {
    let with_ep = position("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    let without = position("8/8/8/KPp4r/8/8/8/7k w - - 0 1");
    assert_eq!(with_ep.ep_square(), None);
    assert_eq!(with_ep.to_fen(), "8/8/8/KPp4r/8/8/8/7k w - - 0 1");
    assert!(with_ep.same_perft_state(&without));
    // No pawn at all next to the double-pushed one.
    let lonely = position("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    assert_eq!(lonely.to_fen(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    // Playing the double push that creates such a square does not set it either.
    let pushed =
        uci::play_moves(&position("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1"), ["d7d5"]).expect("legal");
    assert!(pushed.same_perft_state(&lonely));
}

#[test]
fn legal_ep_square_is_kept() {
    let pos = position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_eq!(
        pos.ep_square().map(|sq| sq.to_string()).as_deref(),
        Some("e3")
    );
    assert_eq!(pos.to_fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert!(moves(&pos).contains(&"d4e3".to_string()));
    assert!(!pos.same_perft_state(&position("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")));
    assert_perft("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", 4, 1799);
}

#[test]
fn en_passant_capture_giving_check() {
    let fen = "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1";
    let pos = position(fen);
    let ep = uci::parse_move(&pos, "c4d3").expect("ep capture is legal");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert!(
        pos.play(ep).checkers().any(),
        "c4xd3 discovers the c5 bishop"
    );
    assert_perft(fen, 6, 1440467);
}

#[test]
fn castling_through_out_of_and_into_check() {
    // f1 attacked: no king side castling; queen side allowed.
    let through = position("3k1r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves(&through).contains(&"e1c1".to_string()));
    assert!(!moves(&through).contains(&"e1g1".to_string()));
    assert_perft("3k1r2/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4, 105654);
    // In check: no castling at all, only king moves.
    let out_of = position("3kr3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(moves(&out_of), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    assert_perft("3kr3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4, 21529);
    // g1 attacked: the king would land in check.
    let into = position("3k2r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves(&into).contains(&"e1c1".to_string()));
    assert!(!moves(&into).contains(&"e1g1".to_string()));
    assert_perft("3k2r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4, 124168);
    // b1 attacked does not matter: only the king's path must be safe.
    let b1 = position("1r1k4/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves(&b1).contains(&"e1c1".to_string()));
    assert!(moves(&b1).contains(&"e1g1".to_string()));
    assert_perft("1r1k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4, 126697);
    assert_perft("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476);
}

#[test]
fn castling_giving_check() {
    assert_perft("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072);
    assert_perft("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711);
}

#[test]
fn castling_rights_lost_by_rook_capture() {
    let start = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let after = uci::play_moves(&start, ["a1a8"]).expect("legal");
    // The capturing rook leaves a1 (white loses Q) and takes a8 (black loses q).
    assert_eq!(after.to_fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    assert!(!moves(&after).contains(&"e8c8".to_string()));
    assert_perft("R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1", 4, 34615);
    assert_perft("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4, 314346);
    assert_perft("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206);
}

#[test]
fn promotions_with_capture_and_underpromotion_checks() {
    let fen = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
    let pos = position(fen);
    let promotions: Vec<String> = legal_moves(&pos)
        .iter()
        .filter(|m| m.kind().promotion().is_some())
        .map(|m| m.to_string())
        .collect();
    // g2 takes the knight on f1 or h1 or advances to g1, each in four pieces; f2 and h2 are
    // blocked.
    assert_eq!(promotions.len(), 12);
    assert!(promotions.contains(&"g2h1n".to_string()));
    assert_perft(fen, 5, 3605103);
    // a7a8n is the only promotion that checks the king on c7.
    let under = position("8/P1k5/K7/8/8/8/8/8 w - - 0 1");
    let knight = uci::parse_move(&under, "a7a8n").expect("legal");
    assert_eq!(knight.kind().promotion(), Some(Role::Knight));
    assert!(under.play(knight).checkers().any());
    let queen = uci::parse_move(&under, "a7a8q").expect("legal");
    assert!(!under.play(queen).checkers().any());
    assert_perft("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683);
    assert_perft("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342);
    assert_perft("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001);
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook e8 and knight d3 both check; the queen could take the knight and the rook on a8
    // could take the rook, but neither helps against two checkers.
    let fen = "R3r1k1/8/8/8/8/Q2n4/8/4K3 w - - 0 1";
    let pos = position(fen);
    assert_eq!(pos.checkers().count(), 2);
    assert_eq!(moves(&pos), ["e1d1", "e1d2", "e1f1"]);
    assert_perft(fen, 4, 21163);
}

#[test]
fn discovered_checks() {
    assert_perft("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658);
}

#[test]
fn stalemate_and_checkmate_at_the_root() {
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let pos = position(fen);
        assert_eq!(count_legal(&pos), 0, "{fen}");
        assert_perft(fen, 1, 0);
        assert_perft(fen, 3, 0);
        assert_eq!(perft(&pos, 0), 1, "perft(0) counts the root itself");
    }
    assert!(!position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").checkers().any());
    assert!(position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").checkers().any());
    assert_perft("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584);
    assert_perft("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527);
}

#[test]
fn self_stalemate() {
    assert_perft("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217);
}
