//! Constants shared by the host and the shaders. Dependency-free: `build.rs` includes this file
//! and passes every entry of [`SHADER_DEFINES`] to the GLSL compiler as a macro definition, as
//! it does for the table's constants (`crates/table/src/tt/shader_shared.rs`) and the NybbleBoard codes
//! (`crates/chess/src/chess/nybble_codes.rs`).

/// Invocations per workgroup of every compute stage.
pub const WORKGROUP_SIZE: u32 = 64;

/// Descriptor bindings of set 0. A chunk's level arrays have no binding of their own: the
/// shaders reach them by device address through the `ChunkArrays` block
/// (`crates/gpu/src/gpu/chunk_arrays.rs`).
pub const BINDING_TABLES: u32 = 0;
pub const BINDING_CHUNK_ARRAYS: u32 = 1;
pub const BINDING_CONTROL: u32 = 2;
pub const BINDING_TT_PARAMS: u32 = 3;
pub const BINDING_ZOBRIST: u32 = 4;
pub const BINDING_TT_STATS: u32 = 5;
pub const BINDING_WORK: u32 = 6;
pub const BINDING_COUNT: u32 = 7;

/// A chunk's level arrays, as indices of the `ChunkArrays` block's address rows, and the
/// segments each may have (the block holds `CHUNK_ARRAYS * CHUNK_MAX_SEGMENTS` addresses).
pub const CHUNK_BOARDS: u32 = 0;
pub const CHUNK_CHILDREN: u32 = 1;
pub const CHUNK_COUNTS: u32 = 2;
pub const CHUNK_FAST_COUNTS: u32 = 3;
pub const CHUNK_HASHES: u32 = 4;
pub const CHUNK_DEDUP: u32 = 5;
pub const CHUNK_STATS: u32 = 6;
pub const CHUNK_FAST_STATS: u32 = 7;
pub const CHUNK_ARRAYS: u32 = 8;
pub const CHUNK_MAX_SEGMENTS: u32 = 512;

/// Layout of the tables buffer, in 64-bit words: the line through two squares (edge to edge)
/// and the squares strictly between them, `[64][64]` each; then, for the slider lookups, three
/// words per square for rooks and for bishops (mask, magic, `offset << 8 | shift`) and the
/// attack sets they index (`crates/chess/src/chess/attacks.rs`'s magic tables).
pub const TABLE_LINE: u32 = 0;
pub const TABLE_BETWEEN: u32 = TABLE_LINE + 64 * 64;
pub const TABLE_ROOK_MAGICS: u32 = TABLE_BETWEEN + 64 * 64;
pub const TABLE_BISHOP_MAGICS: u32 = TABLE_ROOK_MAGICS + 3 * 64;
pub const TABLE_SLIDER_ATTACKS: u32 = TABLE_BISHOP_MAGICS + 3 * 64;

/// The specialization constant that chooses how the move generator finds slider attacks:
/// Kogge-Stone fills on whole sets (no table reads, for CPU implementations such as lavapipe,
/// where each invocation's read of its own address costs a load), or magic lookups per piece
/// (fewer instructions and registers, for GPUs).
pub const SPEC_SLIDER_ATTACKS: u32 = 0;
pub const SLIDERS_BY_FILLS: u32 = 0;
pub const SLIDERS_BY_LOOKUPS: u32 = 1;

/// Layout of the Zobrist key buffer, in 128-bit keys (`Zobrist::key_table`): 12 x 64 piece
/// keys (white pawn..king, black pawn..king), black to move, 16 castling-rook keys, 8 ep-file
/// keys, then the per-depth keys.
pub const ZOBRIST_PIECES: u32 = 0;
pub const ZOBRIST_BLACK_TO_MOVE: u32 = ZOBRIST_PIECES + 12 * 64;
pub const ZOBRIST_CASTLING: u32 = ZOBRIST_BLACK_TO_MOVE + 1;
pub const ZOBRIST_EP_FILE: u32 = ZOBRIST_CASTLING + 16;
pub const ZOBRIST_DEPTH: u32 = ZOBRIST_EP_FILE + 8;
pub const ZOBRIST_DEPTH_KEYS: u32 = 64;
pub const ZOBRIST_KEYS: u32 = ZOBRIST_DEPTH + ZOBRIST_DEPTH_KEYS;

/// `TtParams.mode`: which table the shaders probe and store (as `TtMode`).
pub const TT_MODE_OFF: u32 = 0;
pub const TT_MODE_FAST: u32 = 1;
pub const TT_MODE_VERIFIED: u32 = 2;
pub const TT_MODE_CERTIFY: u32 = 3;
/// Segments of each table array (device addresses in `TtParams`).
pub const TT_MAX_SEGMENTS: u32 = 256;

/// `ChildRange.count` holds the number of children in its low bits and these flags above them.
pub const CHILD_COUNT_MASK: u32 = 0xffff;
/// The position's counts were final before expansion (a TT hit): it has no children.
pub const CHILD_FLAG_RESOLVED: u32 = 1 << 16;
/// certify: the fast table gave another position's count (a false hit); the children give the
/// exact count, the fast count is already final, and nothing is stored.
pub const CHILD_FLAG_FAST_FINAL: u32 = 1 << 17;
/// The position occurs earlier in its level (a transposition within the chunk): `first` is that
/// occurrence's index, whose counts are its counts; it is neither searched nor stored.
pub const CHILD_FLAG_DUPLICATE: u32 = 1 << 18;

/// `StepConstants.flags` bits: the input level was deduplicated (its duplicates are marked, and
/// its TT hashes are in `hashes`); for upsweep, the level of the input's children was; for
/// expand, the level it writes will be, so it writes each child's hash beside it.
pub const DEDUP_INPUT: u32 = 1;
pub const DEDUP_CHILDREN: u32 = 2;
pub const DEDUP_OUTPUT: u32 = 4;
/// For dedup: clear the level's slots of the dedup set instead of inserting (every slot of the
/// level belongs to one of its positions, so a dispatch over the level clears the whole set).
pub const DEDUP_CLEAR: u32 = 8;
/// The chunk's leaf level is compact (leaf entries, below): expand writes it, dedup and leaf
/// read it, and upsweep's input has it as children, which added their counts into it already.
pub const COMPACT_LEAF: u32 = 16;
/// For dedup, after the leaf: each duplicate of the compact leaf level adds its first
/// occurrence's counts into its own parent.
pub const DEDUP_RESOLVE: u32 = 32;
/// The counted move-type statistics (`STAT_COLUMNS` of them) in the order of
/// `crate::chess::MoveStat::TALLIED` (a test holds them to it; `build.rs` cannot see the chess
/// module).
pub const STAT_CAPTURES: u32 = 0;
pub const STAT_EN_PASSANT: u32 = 1;
pub const STAT_CASTLES: u32 = 2;
pub const STAT_PROMOTIONS: u32 = 3;
/// The checks that do not mate, four columns from this one, by `crate::chess::CheckKind`.
pub const STAT_CHECKS_BY_KIND: u32 = 4;
/// The mates, four columns from this one, by `crate::chess::CheckKind`.
pub const STAT_MATES_BY_KIND: u32 = 8;
pub const STAT_STALEMATES: u32 = 12;
pub const STAT_COLUMNS: u32 = 13;
/// A compact leaf entry (`children[i]` of the leaf level, `LeafEntry`): the parent's index
/// and the move that makes the position from it, `from | to << 6 | kind << 12`
/// (`glsl/common/leaf_entry.glsl`). Dedup turns a duplicate's move word into this flag and its
/// first occurrence's index in the level; the leaf turns a searched entry into (fast count,
/// count), at most 218 * 218 each.
pub const LEAF_ENTRY_DUPLICATE: u32 = 1 << 31;
pub const DEDUP_SLOTS_PER_POSITION: u32 = 2;
pub const DEDUP_MAX_PROBES: u32 = 32;

/// Layout of the work counters buffer (`glsl/common/work.glsl`), in 32-bit words: each counter
/// is 64 bits wide as (low, high) words, added with a carry (no 64-bit atomics needed). The leaf
/// count-ops, the duplicates, the moves counted without being made, then the positions expanded
/// per remaining depth (`WORK_DEPTHS` of them).
pub const WORK_LEAF_COUNT_OPS: u32 = 0;
pub const WORK_DUPLICATES: u32 = 2;
pub const WORK_NULL_COUNTED: u32 = 4;
pub const WORK_EXPANDED: u32 = 6;
pub const WORK_DEPTHS: u32 = 32;
pub const WORK_WORDS: u32 = WORK_EXPANDED + 2 * WORK_DEPTHS;

/// Levels of one chunk the `Control` block describes (a chunk of items `r` plies deep has
/// `r - 1` levels: the items, then one per expand).
pub const MAX_LEVELS: u32 = 32;

pub const SHADER_DEFINES: [(&str, u32); 67] = [
    ("WORKGROUP_SIZE", WORKGROUP_SIZE),
    ("BINDING_TABLES", BINDING_TABLES),
    ("BINDING_CHUNK_ARRAYS", BINDING_CHUNK_ARRAYS),
    ("BINDING_CONTROL", BINDING_CONTROL),
    ("BINDING_TT_PARAMS", BINDING_TT_PARAMS),
    ("BINDING_ZOBRIST", BINDING_ZOBRIST),
    ("BINDING_TT_STATS", BINDING_TT_STATS),
    ("BINDING_WORK", BINDING_WORK),
    ("BINDING_COUNT", BINDING_COUNT),
    ("CHUNK_BOARDS", CHUNK_BOARDS),
    ("CHUNK_CHILDREN", CHUNK_CHILDREN),
    ("CHUNK_COUNTS", CHUNK_COUNTS),
    ("CHUNK_FAST_COUNTS", CHUNK_FAST_COUNTS),
    ("CHUNK_HASHES", CHUNK_HASHES),
    ("CHUNK_DEDUP", CHUNK_DEDUP),
    ("CHUNK_STATS", CHUNK_STATS),
    ("CHUNK_FAST_STATS", CHUNK_FAST_STATS),
    ("CHUNK_ARRAYS", CHUNK_ARRAYS),
    ("CHUNK_MAX_SEGMENTS", CHUNK_MAX_SEGMENTS),
    ("TABLE_LINE", TABLE_LINE),
    ("TABLE_BETWEEN", TABLE_BETWEEN),
    ("TABLE_ROOK_MAGICS", TABLE_ROOK_MAGICS),
    ("TABLE_BISHOP_MAGICS", TABLE_BISHOP_MAGICS),
    ("TABLE_SLIDER_ATTACKS", TABLE_SLIDER_ATTACKS),
    ("SPEC_SLIDER_ATTACKS", SPEC_SLIDER_ATTACKS),
    ("SLIDERS_BY_FILLS", SLIDERS_BY_FILLS),
    ("SLIDERS_BY_LOOKUPS", SLIDERS_BY_LOOKUPS),
    ("ZOBRIST_PIECES", ZOBRIST_PIECES),
    ("ZOBRIST_BLACK_TO_MOVE", ZOBRIST_BLACK_TO_MOVE),
    ("ZOBRIST_CASTLING", ZOBRIST_CASTLING),
    ("ZOBRIST_EP_FILE", ZOBRIST_EP_FILE),
    ("ZOBRIST_DEPTH", ZOBRIST_DEPTH),
    ("ZOBRIST_DEPTH_KEYS", ZOBRIST_DEPTH_KEYS),
    ("ZOBRIST_KEYS", ZOBRIST_KEYS),
    ("TT_MODE_OFF", TT_MODE_OFF),
    ("TT_MODE_FAST", TT_MODE_FAST),
    ("TT_MODE_VERIFIED", TT_MODE_VERIFIED),
    ("TT_MODE_CERTIFY", TT_MODE_CERTIFY),
    ("TT_MAX_SEGMENTS", TT_MAX_SEGMENTS),
    ("CHILD_COUNT_MASK", CHILD_COUNT_MASK),
    ("CHILD_FLAG_RESOLVED", CHILD_FLAG_RESOLVED),
    ("CHILD_FLAG_FAST_FINAL", CHILD_FLAG_FAST_FINAL),
    ("CHILD_FLAG_DUPLICATE", CHILD_FLAG_DUPLICATE),
    ("DEDUP_INPUT", DEDUP_INPUT),
    ("DEDUP_CHILDREN", DEDUP_CHILDREN),
    ("DEDUP_OUTPUT", DEDUP_OUTPUT),
    ("DEDUP_CLEAR", DEDUP_CLEAR),
    ("COMPACT_LEAF", COMPACT_LEAF),
    ("DEDUP_RESOLVE", DEDUP_RESOLVE),
    ("STAT_CAPTURES", STAT_CAPTURES),
    ("STAT_EN_PASSANT", STAT_EN_PASSANT),
    ("STAT_CASTLES", STAT_CASTLES),
    ("STAT_PROMOTIONS", STAT_PROMOTIONS),
    ("STAT_CHECKS_BY_KIND", STAT_CHECKS_BY_KIND),
    ("STAT_MATES_BY_KIND", STAT_MATES_BY_KIND),
    ("STAT_STALEMATES", STAT_STALEMATES),
    ("STAT_COLUMNS", STAT_COLUMNS),
    ("LEAF_ENTRY_DUPLICATE", LEAF_ENTRY_DUPLICATE),
    ("DEDUP_SLOTS_PER_POSITION", DEDUP_SLOTS_PER_POSITION),
    ("DEDUP_MAX_PROBES", DEDUP_MAX_PROBES),
    ("MAX_LEVELS", MAX_LEVELS),
    ("WORK_LEAF_COUNT_OPS", WORK_LEAF_COUNT_OPS),
    ("WORK_DUPLICATES", WORK_DUPLICATES),
    ("WORK_NULL_COUNTED", WORK_NULL_COUNTED),
    ("WORK_EXPANDED", WORK_EXPANDED),
    ("WORK_DEPTHS", WORK_DEPTHS),
    ("WORK_WORDS", WORK_WORDS),
];
