//! A sound filter for stalemates at the last ply: moves of the opponent's that stay legal after
//! most of our moves, found once per node, so that only our moves that might take all of them
//! away are made and searched for a reply.
//!
//! Each witness is a move of theirs that is legal after our move `from -> to` unless the move
//! hits one of the witness's kill sets; the child must not be in check (checking moves are
//! tested for mate instead). Ordinary moves change the occupancy on `from` and `to` only
//! (castles and en passant captures are classified one by one), so:
//! - a piece of theirs (knight, bishop, rook, queen) with a target that is not their own piece,
//!   or a pawn with an empty square ahead, not pinned to their king: its move stays legal unless
//!   we take it (`to` is its square), take its square ahead (a pawn's, `to` is that square), or
//!   pin it. A new pin needs a change on the line through their king and the piece: `from` or
//!   `to` on it. A piece off every line through their king can never be pinned. A slider's
//!   target next to it along its rays stays empty or holds our piece, which it may take.
//! - an empty or enemy-held square next to their king that we do not attack (their king removed
//!   from the occupancy, so that it cannot step back along a ray): it stays unattacked unless
//!   the moved piece attacks it from `to` (its attacks on the empty board are a superset: the
//!   squares it attacks it from, by symmetry, are kill targets by role), `to` is the square
//!   itself, or `from` is aligned with it (leaving it may uncover a slider's ray).

use super::board::{Board, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use super::flags::Side;
use super::lookup::Sliders;
use super::node::attacked_next_to_king;
use crate::chess::bitboard::Bitboard;
use crate::chess::square::Square;

/// Enough for nearly every node: two witnesses off the lines through their king leave no move
/// of ours to test.
const MAX_WITNESSES: usize = 3;

/// A legal move of theirs and the moves of ours that may take it away.
#[derive(Clone, Copy)]
struct Witness {
    /// Our moves from these squares, to any target.
    from_kill: Bitboard,
    /// Our moves to these squares, by the role of the piece that lands there.
    to_kill: [Bitboard; 6],
}

/// The witnesses of a node: no table where two witnesses off the lines through their king leave
/// no move of ours to test (most nodes).
pub struct Witnesses {
    table: Option<WitnessTable>,
    /// Where two witnesses off the lines through their king settled the node, the squares our
    /// pieces must land on to kill each (its own, a pawn's square ahead); elsewhere every
    /// square. A castle lands two pieces, and stalemates only if it kills both.
    free_pair: [Bitboard; 2],
}

/// The witnesses found, and for the common case the targets that may kill them all.
struct WitnessTable {
    found: [Witness; MAX_WITNESSES],
    count: usize,
    /// The union of the witnesses' `from_kill`.
    any_from_kill: Bitboard,
    /// The intersection of the witnesses' `to_kill`, by role.
    all_to_kill: [Bitboard; 6],
}

/// `bb` with each square moved by `offset` (`+8` is a rank north); squares off the board go.
#[inline(always)]
pub fn shifted(bb: Bitboard, offset: i8) -> Bitboard {
    if offset >= 0 {
        Bitboard(bb.0 << offset)
    } else {
        Bitboard(bb.0 >> -offset)
    }
}

impl Witnesses {
    /// The witnesses of the opponent's moves after ours in `board`, `S` to move; `pinned`:
    /// their pieces pinned to their king `their_king`.
    #[inline(always)]
    pub fn new<L: Sliders, S: Side>(
        sliders: L,
        board: &Board,
        their_king: Square,
        pinned: Bitboard,
    ) -> Witnesses {
        let t = sliders.leapers();
        let theirs = board.theirs::<S>();
        let empty = !(board.ours::<S>() | theirs);
        let aligned = t.bishop_rays(their_king) | t.rook_rays(their_king);
        // Their pawns whose square ahead is empty: it is one rank ahead in their direction,
        // one rank behind in ours.
        let pushers = board.roles[PAWN] & theirs & S::forward(empty) & !pinned;
        // Witnesses off the lines through their king are killed only by a move onto their
        // piece's square (or a pawn's square ahead): two of them, most nodes, leave no move
        // of ours to test, and need no table.
        let ahead = |pawn: Square| Square::new((pawn.to_u8() as i8 - S::PUSH) as u8);
        let kill_squares = |piece: Square| {
            let square = Bitboard::from_square(piece);
            if pushers.contains(piece) {
                square.with(ahead(piece))
            } else {
                square
            }
        };
        let settled_by = |free: Bitboard| {
            let first = free.lsb();
            Witnesses {
                table: None,
                free_pair: [kill_squares(first), kill_squares(free.without(first).lsb())],
            }
        };
        if (pushers & !aligned).more_than_one() {
            return settled_by(pushers & !aligned);
        }
        let movers = mobile_pieces::<L, S>(sliders, board, pinned);
        if ((pushers | movers) & !aligned).more_than_one() {
            return settled_by((pushers | movers) & !aligned);
        }
        let mut witnesses = WitnessTable {
            found: [Witness {
                from_kill: Bitboard::EMPTY,
                to_kill: [Bitboard::EMPTY; 6],
            }; MAX_WITNESSES],
            count: 0,
            any_from_kill: Bitboard::EMPTY,
            all_to_kill: [Bitboard::ALL; 6],
        };
        // At most one is left off the lines, and one witness settles nothing.
        for piece in (pushers | movers) & !aligned {
            witnesses.add(Bitboard::EMPTY, kill_squares(piece));
        }
        for piece in (pushers | movers) & aligned {
            let line = t.line(their_king, piece);
            witnesses.add(line, line | kill_squares(piece));
            if witnesses.settled() {
                return Witnesses::table(witnesses);
            }
        }
        let escapes = t.king(their_king)
            & !theirs
            & !attacked_next_to_king::<L, S::Other>(sliders, board, their_king);
        for escape in escapes {
            let diagonal = t.bishop_rays(escape);
            let straight = t.rook_rays(escape);
            let mut to_kill = [Bitboard::EMPTY; 6];
            to_kill[PAWN] = t.pawn(S::Other::COLOR, escape);
            to_kill[KNIGHT] = t.knight(escape);
            to_kill[BISHOP] = diagonal;
            to_kill[ROOK] = straight;
            to_kill[QUEEN] = diagonal | straight;
            to_kill[KING] = t.king(escape);
            witnesses.add_by_role(diagonal | straight, to_kill.map(|set| set.with(escape)));
            if witnesses.settled() {
                return Witnesses::table(witnesses);
            }
        }
        Witnesses::table(witnesses)
    }

    #[inline(always)]
    fn table(table: WitnessTable) -> Witnesses {
        Witnesses {
            table: Some(table),
            free_pair: [Bitboard::ALL; 2],
        }
    }

    /// Whether a witness surely survives a move of ours that lands pieces on `landing`, takes
    /// nothing and gives no check (a castle).
    #[inline(always)]
    pub fn survive_landing(&self, landing: Bitboard) -> bool {
        (self.free_pair[0] & landing).is_empty() || (self.free_pair[1] & landing).is_empty()
    }

    /// Whether some move of ours that neither checks nor castles might stalemate: where none
    /// can, [`Self::unproven`] is empty for every piece.
    #[inline(always)]
    pub fn may_stalemate(&self) -> bool {
        self.table.is_some()
    }

    /// The targets of the piece of role `role` moving from `from` after which no witness is
    /// known to survive.
    #[inline(always)]
    pub fn unproven(&self, role: usize, from: Square) -> Bitboard {
        match &self.table {
            None => Bitboard::EMPTY,
            Some(table) => table.unproven(role, from),
        }
    }

    /// A superset of [`Self::unproven`] that costs a load: the generator's loops test it for
    /// every piece, and the moves it lets through are classified exactly out of line.
    #[inline(always)]
    pub fn unproven_superset(&self, role: usize, from: Square) -> Bitboard {
        match &self.table {
            None => Bitboard::EMPTY,
            Some(table) if table.any_from_kill.contains(from) => Bitboard::ALL,
            Some(table) => table.all_to_kill[role],
        }
    }

    /// As [`Self::unproven_superset`] for [`Self::unproven_pawn_moves`].
    #[inline(always)]
    pub fn unproven_pawn_moves_superset(&self) -> Bitboard {
        match &self.table {
            None => Bitboard::EMPTY,
            Some(table) if table.any_from_kill.any() => Bitboard::ALL,
            Some(table) => table.all_to_kill[PAWN],
        }
    }

    /// As [`Self::unproven`] for pawn moves that do not promote, onto each target from
    /// `to - offset`.
    #[inline(always)]
    pub fn unproven_pawn_moves(&self, offset: i8) -> Bitboard {
        match &self.table {
            None => Bitboard::EMPTY,
            Some(table) => table.unproven_pawn_moves(offset),
        }
    }
}

impl WitnessTable {
    #[inline(always)]
    fn add(&mut self, from_kill: Bitboard, to_kill: Bitboard) {
        self.add_by_role(from_kill, [to_kill; 6]);
    }

    #[inline(always)]
    fn add_by_role(&mut self, from_kill: Bitboard, to_kill: [Bitboard; 6]) {
        self.found[self.count] = Witness { from_kill, to_kill };
        self.count += 1;
        self.any_from_kill |= from_kill;
        for (all, one) in self.all_to_kill.iter_mut().zip(to_kill) {
            *all &= one;
        }
    }

    /// Whether more witnesses would not help: the table is full, or no move of ours can kill
    /// them all.
    #[inline(always)]
    fn settled(&self) -> bool {
        self.count == MAX_WITNESSES
            || (self.any_from_kill.is_empty() && self.all_to_kill.iter().all(|set| set.is_empty()))
    }

    #[inline(always)]
    fn unproven(&self, role: usize, from: Square) -> Bitboard {
        if !self.any_from_kill.contains(from) {
            return self.all_to_kill[role];
        }
        let mut unproven = Bitboard::ALL;
        for witness in &self.found[..self.count] {
            if !witness.from_kill.contains(from) {
                unproven &= witness.to_kill[role];
            }
        }
        unproven
    }

    #[inline(always)]
    fn unproven_pawn_moves(&self, offset: i8) -> Bitboard {
        if self.any_from_kill.is_empty() {
            return self.all_to_kill[PAWN];
        }
        let mut unproven = Bitboard::ALL;
        for witness in &self.found[..self.count] {
            unproven &= witness.to_kill[PAWN] | shifted(witness.from_kill, offset);
        }
        unproven
    }
}

/// Their knights, bishops, rooks and queens, not pinned, with a target that is not their own
/// piece; for a slider one next to it along its rays, which needs no attack lookup.
#[inline(always)]
fn mobile_pieces<L: Sliders, S: Side>(sliders: L, board: &Board, pinned: Bitboard) -> Bitboard {
    let t = sliders.leapers();
    let theirs = board.theirs::<S>();
    let free = theirs & !pinned;
    let mut mobile = Bitboard::EMPTY;
    for from in board.roles[KNIGHT] & free {
        if (t.knight(from) & !theirs).any() {
            mobile = mobile.with(from);
        }
    }
    for from in board.roles[BISHOP] & free {
        if (t.king(from) & t.bishop_rays(from) & !theirs).any() {
            mobile = mobile.with(from);
        }
    }
    for from in board.roles[ROOK] & free {
        if (t.king(from) & t.rook_rays(from) & !theirs).any() {
            mobile = mobile.with(from);
        }
    }
    for from in board.roles[QUEEN] & free {
        if (t.king(from) & !theirs).any() {
            mobile = mobile.with(from);
        }
    }
    mobile
}
