// The move generator: generate_moves(board_index) calls `void on_move(Pos parent, uint from,
// uint to, uint kind)`, which the including shader defines after including movegen.glsl, for
// every legal move of the position `GENERATOR_POSITION(board_index)` (by default the board
// `board_at(board_index)`). Its loop is generate_loop.glsl's. The position is decoded again
// from memory for each move, so that only the analysis and the current group are held in
// registers while on_move runs (in the leaf, while it counts a child's moves).
#ifndef GENERATE_GLSL
#define GENERATE_GLSL

// The generator's position `index`: from `boards` unless the including shader defines
// GENERATOR_POSITION itself.
#ifndef GENERATOR_POSITION
#define GENERATOR_POSITION(index) decode_board(board_at(index))
#endif

// The position, read again where it is needed rather than held in registers. `salt` is 0, but
// varies from one iteration of the generator's loop to the next as far as the compiler can
// tell: reads at one unchanging index would be merged into one before the loop, and the decoded
// position held in registers after all.
Pos generator_position(uint board_index, uint salt) {
    return GENERATOR_POSITION(board_index + salt);
}

#define GENERATE_FUNCTION generate_moves
#define GENERATE_ARGUMENT uint board_index
#define GENERATE_POSITION(salt) generator_position(board_index, salt)
#define GENERATE_VISIT on_move
#define GENERATE_SELECT(position, group, from, offset, targets) (targets)
#define GENERATE_PIECES(group, pieces) (pieces)
#define GENERATE_ANALYSIS(position) analyze(position)
#define GENERATE_NEXT_GROUP(group) ((group) + 1u)
#include "generate_loop.glsl"
#undef GENERATE_FUNCTION
#undef GENERATE_ARGUMENT
#undef GENERATE_POSITION
#undef GENERATE_VISIT
#undef GENERATE_SELECT
#undef GENERATE_PIECES
#undef GENERATE_ANALYSIS
#undef GENERATE_NEXT_GROUP

#endif
