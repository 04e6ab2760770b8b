//! Counting without making at the penultimate ply. At a node two plies above the leaves, the
//! opponent's legal replies are counted once on the board as it stands with the turn passed
//! (a null move: same pieces, their turn, no en passant square), and every move of ours that
//! provably leaves that list of replies unchanged adds that count without being made. Only
//! the other moves are made and their replies counted.
//!
//! # Which moves leave the replies unchanged
//!
//! A move of ours from `f` to `t` is *neutral* when all of the following hold. Below, "their
//! king" is the opponent's, and the *zone* is the squares whose attack by us their legality
//! looks at: their king's square, the squares next to it that their own pieces do not hold (a
//! square of theirs stays theirs after a quiet move, so whether we attack it cannot matter),
//! and every square their king passes or lands on in each castle that no piece of theirs
//! blocks, their castling rook's square included (a Chess960 king may land there).
//!
//! 1. We are not in check: on the null board their replies would include taking our king.
//! 2. It is a quiet move (no capture) of a knight, bishop, rook, queen or pawn: no king move
//!    (it moves an attacker of the squares next to our king, which their king may not enter
//!    next to ours, and may change castling), no castle, no en passant capture (two squares
//!    change), no promotion (the new piece attacks otherwise).
//! 3. Neither `f` nor `t` is a square one of their legal replies on the null board lands on
//!    (targets of every piece, the king's legal steps, pawn pushes and captures), nor a square
//!    one or two ahead of one of their pawns, nor a square their pawns attack. So no ray of a
//!    piece of theirs that may move along it ends on `f` (vacating `f` would lengthen it) or
//!    passes `t` (filling `t` would shorten it and add a capture), no push is opened or
//!    closed, and no pawn capture appears. A ray of a pinned piece of theirs may end on `f`:
//!    that piece may not leave its pin line, and 5 keeps the pin as it is.
//! 4. While they have a castling right, neither `f` nor `t` is on their back rank: the squares
//!    between their king and rook must stay empty, and a Chess960 castle must not uncover one
//!    of our rooks on that rank that their castling rook blocked.
//! 5. Neither `f` nor `t` is on a line (rank, file or diagonal) from a zone square up to and
//!    including the first piece on it, their king not counted as a piece (it may not step back
//!    along a ray that attacks it); nor, from their king's square, up to and including the
//!    second piece when the first is theirs. Every attack of ours on the zone runs along such a
//!    line or is a knight's or pawn's: a piece that leaves or enters one could open or close an
//!    attack of ours on the zone; a bishop, rook or queen on `f` or `t` off those lines attacks
//!    no zone square from there. The second part keeps every pin of a piece of theirs to their
//!    king (the pinner, and the squares between it and the pinned piece) and creates none.
//! 6. A knight's `f` and `t` are not a knight's move from a zone square, and a pawn's attack
//!    no zone square: that piece attacks the zone neither before nor after.
//! 7. A double push passes a square that their pawns do not attack: the child then has no en
//!    passant square, as the null board has none.
//!
//! After a neutral move their pieces, the squares their pieces may move to or through, our
//! attacks on every square their king's legality looks at, and every pin of theirs are as on
//! the null board, they are not in check (the moved piece attacks nothing of the zone, and no
//! line of sight to their king changed), and neither board has an en passant capture: the same
//! legal replies, move for move. The statistics (`--stats`) classify each reply by what it does
//! to our king, which a neutral move may change; [`super::neutral_stats`] says when it cannot.

use super::board::{Board, KING, KNIGHT, PAWN};
use super::flags::{Flag, No, Side};
use super::leaf_count::{add_leaf_count_ops, add_null_counted};
use super::lookup::Sliders;
use super::node::{attackers_of_king_square, generate, origin, Children, Visitor};
use crate::chess::bitboard::Bitboard;
use crate::chess::castling::CastlingSquares;
use crate::chess::square::Square;
use std::marker::PhantomData;

/// Perft of `board` to depth 2 with `S` to move: neutral moves counted by the replies of the
/// null board, the others made.
#[inline(always)]
pub fn perft_two<L: Sliders, S: Side, E: Flag, C: Flag>(sliders: L, board: &Board) -> u64 {
    let mut children = Children::<L, S, C, u64>::new(sliders, board, 1);
    if in_check::<L, S>(sliders, board) {
        generate::<L, S, E, C, _>(sliders, board, &mut children);
        add_leaf_count_ops(children.made);
        return children.total;
    }
    let replies = null_replies::<L, S, C>(sliders, board);
    let avoid = avoid::<L, S, C>(sliders, board, replies.targets);
    let mut split = NeutralSplit::<S, _, _>::new(board, children, avoid, 0u64);
    generate::<L, S, E, C, _>(sliders, board, &mut split);
    add_leaf_count_ops(split.others.made);
    add_null_counted(split.neutral);
    split.others.total + split.neutral * replies.count
}

/// Whether the side to move on `board` is in check.
#[inline(always)]
pub(super) fn in_check<L: Sliders, S: Side>(sliders: L, board: &Board) -> bool {
    let theirs = board.theirs::<S>();
    let occupied = board.ours::<S>() | theirs;
    let king = (board.roles[KING] & board.ours::<S>()).lsb();
    (attackers_of_king_square::<L, S>(sliders, board, king, occupied) & theirs).any()
}

/// The opponent's legal replies on the null board: how many, and every square they land on.
pub(super) struct NullReplies {
    pub count: u64,
    pub targets: Bitboard,
}

#[inline(always)]
pub(super) fn null_replies<L: Sliders, S: Side, C: Flag>(sliders: L, board: &Board) -> NullReplies {
    let mut replies = NullReplies {
        count: 0,
        targets: Bitboard::EMPTY,
    };
    generate::<L, S::Other, No, C, _>(sliders, board, &mut replies);
    replies
}

impl Visitor for NullReplies {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, _from: Square, targets: Bitboard) {
        self.count += u64::from(targets.count());
        self.targets |= targets;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _offset: i8) {
        self.count += u64::from(targets.count());
        self.targets |= targets;
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _offset: i8) {
        self.count += u64::from(targets.count());
        self.targets |= targets;
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _offset: i8) {
        self.count += 4 * u64::from(targets.count());
        self.targets |= targets;
    }

    /// The null board has no en passant square.
    #[inline(always)]
    fn en_passant(&mut self, _from: Square) {
        self.count += 1;
    }

    /// The squares a castle needs empty are kept by rule 4 (the back rank), its king's path by
    /// the zone.
    #[inline(always)]
    fn castle(&mut self, _squares: CastlingSquares) {
        self.count += 1;
    }
}

/// The squares a neutral move's origin and target must avoid, by the role that moves.
#[derive(Clone, Copy)]
pub(super) struct Avoid {
    pub knight: Bitboard,
    pub slider: Bitboard,
    pub pawn: Bitboard,
    /// Squares a double push may pass (rule 7).
    passable: Bitboard,
}

/// The rules of the module's doc, as masks over squares, with `reply_targets` those of the
/// null board's replies.
#[inline(always)]
pub(super) fn avoid<L: Sliders, S: Side, C: Flag>(
    sliders: L,
    board: &Board,
    reply_targets: Bitboard,
) -> Avoid {
    let t = sliders.leapers();
    let ours = board.ours::<S>();
    let theirs = board.theirs::<S>();
    let occupied = ours | theirs;
    let their_king = (board.roles[KING] & theirs).lsb();

    // Rule 3: their pawns' pushes and attacks.
    let their_pawns = board.roles[PAWN] & theirs;
    let ahead = S::Other::forward(their_pawns);
    let second = S::Other::forward(S::Other::forward(
        their_pawns & S::Other::forward(S::Other::BACK_RANK),
    ));
    let pawn_attacks =
        (ahead & !Bitboard::FILE_A).shift_west() | (ahead & !Bitboard::FILE_H).shift_east();
    let mut common = reply_targets | ahead | second | pawn_attacks;

    // Rule 4, and the castling part of the zone.
    let mut zone = (t.king(their_king) & !theirs).with(their_king);
    let castling_rooks = board.castling_rooks & theirs;
    if C::ON && castling_rooks.any() {
        common |= S::Other::BACK_RANK;
        for rook in castling_rooks {
            // A castle that a piece of theirs blocks stays blocked; otherwise its king may
            // land on its own rook's square (Chess960), the one square of theirs it passes.
            let squares = CastlingSquares::new(their_king, rook);
            if (squares.must_be_empty() & theirs).is_empty() {
                zone |= squares.king_path();
            }
        }
    }

    // Rules 5 and 6.
    let through_king = occupied.without(their_king);
    let mut knight_reach = Bitboard::EMPTY;
    let mut pawn_reach = Bitboard::EMPTY;
    for square in zone {
        common |= sliders.rook(square, through_king) | sliders.bishop(square, through_king);
        knight_reach |= t.knight(square);
        pawn_reach |= t.pawn(S::Other::COLOR, square);
    }
    let first = sliders.rook(their_king, occupied) | sliders.bishop(their_king, occupied);
    let past_theirs = occupied & !(first & theirs);
    common |= sliders.rook(their_king, past_theirs) | sliders.bishop(their_king, past_theirs);

    Avoid {
        knight: common | knight_reach,
        slider: common,
        pawn: common | pawn_reach,
        passable: !pawn_attacks,
    }
}

/// Receives the neutral moves of a node: counted, or listed.
pub(super) trait NeutralMoves {
    /// Moves of the piece on `from` to each square of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn pushes onto each square of `targets` from `to - offset`.
    fn pawns(&mut self, targets: Bitboard, offset: i8);
}

impl NeutralMoves for u64 {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        *self += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _offset: i8) {
        *self += u64::from(targets.count());
    }
}

impl NeutralMoves for Vec<(Square, Square)> {
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.extend(targets.into_iter().map(|to| (from, to)));
    }

    fn pawns(&mut self, targets: Bitboard, offset: i8) {
        self.extend(targets.into_iter().map(|to| (origin(to, offset), to)));
    }
}

/// The neutral moves of `board`, `S` to move, handed to `neutral`; `None` when it is in check
/// and no move is neutral.
#[inline(always)]
pub(super) fn list_neutral<L: Sliders, S: Side, E: Flag, C: Flag>(
    sliders: L,
    board: &Board,
) -> Option<Vec<(Square, Square)>> {
    if in_check::<L, S>(sliders, board) {
        return None;
    }
    let replies = null_replies::<L, S, C>(sliders, board);
    let avoid = avoid::<L, S, C>(sliders, board, replies.targets);
    let mut split = NeutralSplit::<S, _, _>::new(board, Ignore, avoid, Vec::new());
    generate::<L, S, E, C, _>(sliders, board, &mut split);
    Some(split.neutral)
}

/// Takes the moves that are not neutral when only the neutral ones are wanted.
pub(super) struct Ignore;

impl Visitor for Ignore {
    fn piece<const ROLE: usize>(&mut self, _from: Square, _targets: Bitboard) {}
    fn pawn_moves(&mut self, _targets: Bitboard, _offset: i8) {}
    fn double_pushes(&mut self, _targets: Bitboard, _offset: i8) {}
    fn promotions(&mut self, _targets: Bitboard, _offset: i8) {}
    fn en_passant(&mut self, _from: Square) {}
    fn castle(&mut self, _squares: CastlingSquares) {}
}

/// Hands the neutral moves of a node to `neutral` and the others to `others`.
pub(super) struct NeutralSplit<S, V, N> {
    pub others: V,
    avoid: Avoid,
    empty: Bitboard,
    pub neutral: N,
    side: PhantomData<S>,
}

impl<S: Side, V: Visitor, N: NeutralMoves> NeutralSplit<S, V, N> {
    #[inline(always)]
    pub fn new(board: &Board, others: V, avoid: Avoid, neutral: N) -> Self {
        NeutralSplit {
            others,
            avoid,
            empty: !(board.ours::<S>() | board.theirs::<S>()),
            neutral,
            side: PhantomData,
        }
    }
}

impl<S: Side, V: Visitor, N: NeutralMoves> Visitor for NeutralSplit<S, V, N> {
    #[inline(always)]
    fn piece<const ROLE: usize>(&mut self, from: Square, targets: Bitboard) {
        let avoid = match ROLE {
            KING => Bitboard::ALL,
            KNIGHT => self.avoid.knight,
            _ => self.avoid.slider,
        };
        let neutral = if avoid.contains(from) {
            Bitboard::EMPTY
        } else {
            targets & self.empty & !avoid
        };
        self.neutral.piece(from, neutral);
        self.others.piece::<ROLE>(from, targets & !neutral);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8) {
        let neutral = if offset == S::PUSH {
            let allowed = !self.avoid.pawn;
            targets & allowed & S::forward(allowed)
        } else {
            Bitboard::EMPTY
        };
        self.neutral.pawns(neutral, offset);
        self.others.pawn_moves(targets & !neutral, offset);
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, offset: i8) {
        let allowed = !self.avoid.pawn;
        let neutral =
            targets & allowed & S::forward(self.avoid.passable) & S::forward(S::forward(allowed));
        self.neutral.pawns(neutral, offset);
        self.others.double_pushes(targets & !neutral, offset);
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i8) {
        self.others.promotions(targets, offset);
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square) {
        self.others.en_passant(from);
    }

    #[inline(always)]
    fn castle(&mut self, squares: CastlingSquares) {
        self.others.castle(squares);
    }
}
