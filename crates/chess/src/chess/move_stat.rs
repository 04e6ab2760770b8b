//! The columns of the move-type statistics: each names what it counts of a perft's last ply,
//! its JSON key and its heading, under one of two conventions.
//!
//! One leaf (one line of `depth` plies) at a time, by its last move `m` from the position
//! before it to the position after it. The *moved piece* is the piece that stands on `m`'s
//! target after it: for a castle the rook, for a promotion the new piece, for en passant the
//! capturing pawn. The *checkers* are the pieces that give check after `m`; a *discovered*
//! checker is one that is not the moved piece. A *mate* is a check with no legal reply.
//!
//! The Grand Chess Tree's columns (its JSON keys, <https://grandchesstree.com>) split checks and
//! mates by how they arise, and its checks leave the mates out:
//! - `captures`: `m` takes a piece, en passant included (a castle, written as the king taking
//!   its own rook, is not a capture); `enpassants`; `castles`; `promotions` (each of a pawn's
//!   four promotions counts);
//! - `direct_checks`: one checker, the moved piece; `single_discovered_checks`: one checker,
//!   discovered; `direct_discovered_checks`: two checkers, the moved piece and a discovered
//!   one; `double_discovered_checks`: two discovered checkers (en passant opening two lines);
//!   each of them no mate; `total_checks` their sum;
//! - `direct_mates`, `single_discovered_mates`, `direct_discovered_mates`,
//!   `double_discovered_mates`: the mates, split the same way; `total_mates` their sum;
//! - `stalemates`: no check and no legal reply (not a Grand Chess Tree column; vkperft's own).
//!
//! The Chess Programming Wiki's columns, vkperft's keys before the Grand Chess Tree's and kept
//! for one release, are derived from those: `en_passant` (= `enpassants`), `checks` (every
//! check, mates included: `total_checks + total_mates`), `discovered_checks`
//! (= `single_discovered_checks`), `double_checks` (two checkers, mates left out:
//! `direct_discovered_checks + double_discovered_checks`) and `checkmates` (= `total_mates`).

/// A column of the move-type statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveStat {
    Captures,
    EnPassants,
    Castles,
    Promotions,
    DirectChecks,
    SingleDiscoveredChecks,
    DirectDiscoveredChecks,
    DoubleDiscoveredChecks,
    TotalChecks,
    DirectMates,
    SingleDiscoveredMates,
    DirectDiscoveredMates,
    DoubleDiscoveredMates,
    TotalMates,
    Stalemates,
    /// The wiki's `en_passant`.
    EnPassant,
    /// The wiki's `checks`, mates included.
    Checks,
    /// The wiki's `discovered_checks`, mates left out.
    DiscoveredChecks,
    /// The wiki's `double_checks`, mates left out.
    DoubleChecks,
    /// The wiki's `checkmates`.
    Checkmates,
}

/// How many columns there are, both conventions together.
pub const STAT_COUNT: usize = MoveStat::ALL.len();

/// How many columns are counted; the others are sums of them.
pub const TALLIED_COUNT: usize = MoveStat::TALLIED.len();

/// How a check (or a mate) arises, in the order of the columns that count each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    Direct,
    SingleDiscovered,
    DirectDiscovered,
    DoubleDiscovered,
}

impl CheckKind {
    /// The kind of a check by two pieces (`double`) or one, the moved piece among them or not.
    pub const fn of(double: bool, moved_piece_checks: bool) -> CheckKind {
        match (double, moved_piece_checks) {
            (false, true) => CheckKind::Direct,
            (false, false) => CheckKind::SingleDiscovered,
            (true, true) => CheckKind::DirectDiscovered,
            (true, false) => CheckKind::DoubleDiscovered,
        }
    }

    /// The column that counts such checks that are no mate.
    pub const fn checks(self) -> MoveStat {
        match self {
            CheckKind::Direct => MoveStat::DirectChecks,
            CheckKind::SingleDiscovered => MoveStat::SingleDiscoveredChecks,
            CheckKind::DirectDiscovered => MoveStat::DirectDiscoveredChecks,
            CheckKind::DoubleDiscovered => MoveStat::DoubleDiscoveredChecks,
        }
    }

    /// The column that counts such checks that mate.
    pub const fn mates(self) -> MoveStat {
        match self {
            CheckKind::Direct => MoveStat::DirectMates,
            CheckKind::SingleDiscovered => MoveStat::SingleDiscoveredMates,
            CheckKind::DirectDiscovered => MoveStat::DirectDiscoveredMates,
            CheckKind::DoubleDiscovered => MoveStat::DoubleDiscoveredMates,
        }
    }
}

/// Which published tables a set of columns follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The Grand Chess Tree's columns, checks without mates, and stalemates.
    GrandChessTree,
    /// The Chess Programming Wiki's columns, checks with mates, and stalemates.
    Wiki,
}

impl Convention {
    pub const ALL: [Convention; 2] = [Convention::GrandChessTree, Convention::Wiki];

    /// The columns of this convention, in its tables' order.
    pub const fn columns(self) -> &'static [MoveStat] {
        match self {
            Convention::GrandChessTree => &MoveStat::GRAND_CHESS_TREE,
            Convention::Wiki => &MoveStat::WIKI,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Convention::GrandChessTree => "Grand Chess Tree",
            Convention::Wiki => "Chess Programming Wiki",
        }
    }
}

impl MoveStat {
    /// Every column: the Grand Chess Tree's, stalemates, then the wiki's own.
    pub const ALL: [MoveStat; 20] = {
        let mut all = [MoveStat::Captures; 20];
        let mut i = 0;
        while i < all.len() {
            all[i] = match i < MoveStat::GRAND_CHESS_TREE.len() {
                true => MoveStat::GRAND_CHESS_TREE[i],
                false => MoveStat::WIKI_OWN[i - MoveStat::GRAND_CHESS_TREE.len()],
            };
            i += 1;
        }
        all
    };

    /// The wiki's columns that are not the Grand Chess Tree's.
    const WIKI_OWN: [MoveStat; 5] = [
        MoveStat::EnPassant,
        MoveStat::Checks,
        MoveStat::DiscoveredChecks,
        MoveStat::DoubleChecks,
        MoveStat::Checkmates,
    ];

    /// The columns that are counted, in the order a [`MoveStats`](super::MoveStats) stores
    /// them (and journals, tables and shaders number them).
    pub const TALLIED: [MoveStat; 13] = [
        MoveStat::Captures,
        MoveStat::EnPassants,
        MoveStat::Castles,
        MoveStat::Promotions,
        MoveStat::DirectChecks,
        MoveStat::SingleDiscoveredChecks,
        MoveStat::DirectDiscoveredChecks,
        MoveStat::DoubleDiscoveredChecks,
        MoveStat::DirectMates,
        MoveStat::SingleDiscoveredMates,
        MoveStat::DirectDiscoveredMates,
        MoveStat::DoubleDiscoveredMates,
        MoveStat::Stalemates,
    ];

    /// The Grand Chess Tree's columns in its order, then stalemates.
    pub const GRAND_CHESS_TREE: [MoveStat; 15] = [
        MoveStat::Captures,
        MoveStat::EnPassants,
        MoveStat::Castles,
        MoveStat::Promotions,
        MoveStat::DirectChecks,
        MoveStat::SingleDiscoveredChecks,
        MoveStat::DirectDiscoveredChecks,
        MoveStat::DoubleDiscoveredChecks,
        MoveStat::TotalChecks,
        MoveStat::DirectMates,
        MoveStat::SingleDiscoveredMates,
        MoveStat::DirectDiscoveredMates,
        MoveStat::DoubleDiscoveredMates,
        MoveStat::TotalMates,
        MoveStat::Stalemates,
    ];

    /// The wiki's columns in its order, then stalemates: vkperft's columns before the Grand
    /// Chess Tree's.
    pub const WIKI: [MoveStat; 9] = [
        MoveStat::Captures,
        MoveStat::EnPassant,
        MoveStat::Castles,
        MoveStat::Promotions,
        MoveStat::Checks,
        MoveStat::DiscoveredChecks,
        MoveStat::DoubleChecks,
        MoveStat::Checkmates,
        MoveStat::Stalemates,
    ];

    /// The JSON key.
    pub const fn key(self) -> &'static str {
        match self {
            MoveStat::Captures => "captures",
            MoveStat::EnPassants => "enpassants",
            MoveStat::Castles => "castles",
            MoveStat::Promotions => "promotions",
            MoveStat::DirectChecks => "direct_checks",
            MoveStat::SingleDiscoveredChecks => "single_discovered_checks",
            MoveStat::DirectDiscoveredChecks => "direct_discovered_checks",
            MoveStat::DoubleDiscoveredChecks => "double_discovered_checks",
            MoveStat::TotalChecks => "total_checks",
            MoveStat::DirectMates => "direct_mates",
            MoveStat::SingleDiscoveredMates => "single_discovered_mates",
            MoveStat::DirectDiscoveredMates => "direct_discovered_mates",
            MoveStat::DoubleDiscoveredMates => "double_discovered_mates",
            MoveStat::TotalMates => "total_mates",
            MoveStat::Stalemates => "stalemates",
            MoveStat::EnPassant => "en_passant",
            MoveStat::Checks => "checks",
            MoveStat::DiscoveredChecks => "discovered_checks",
            MoveStat::DoubleChecks => "double_checks",
            MoveStat::Checkmates => "checkmates",
        }
    }

    /// The heading tables show.
    pub const fn heading(self) -> &'static str {
        match self {
            MoveStat::Captures => "Captures",
            MoveStat::EnPassants | MoveStat::EnPassant => "E.p.",
            MoveStat::Castles => "Castles",
            MoveStat::Promotions => "Promotions",
            MoveStat::DirectChecks => "Direct ch.",
            MoveStat::SingleDiscoveredChecks => "Disc. ch.",
            MoveStat::DirectDiscoveredChecks => "Dir.+disc. ch.",
            MoveStat::DoubleDiscoveredChecks => "Double disc. ch.",
            MoveStat::TotalChecks => "Checks (no mate)",
            MoveStat::DirectMates => "Direct mates",
            MoveStat::SingleDiscoveredMates => "Disc. mates",
            MoveStat::DirectDiscoveredMates => "Dir.+disc. mates",
            MoveStat::DoubleDiscoveredMates => "Double disc. mates",
            MoveStat::TotalMates => "Mates",
            MoveStat::Stalemates => "Stalemates",
            MoveStat::Checks => "Checks",
            MoveStat::DiscoveredChecks => "Discovered",
            MoveStat::DoubleChecks => "Double",
            MoveStat::Checkmates => "Checkmates",
        }
    }

    /// The column whose JSON key is `key`.
    pub fn from_key(key: &str) -> Option<MoveStat> {
        MoveStat::ALL.into_iter().find(|stat| stat.key() == key)
    }

    /// Its index in [`MoveStat::TALLIED`], if it is counted rather than summed.
    pub const fn tallied_index(self) -> Option<usize> {
        let mut i = 0;
        while i < TALLIED_COUNT {
            if MoveStat::TALLIED[i] as u32 == self as u32 {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}
