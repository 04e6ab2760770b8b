// The groups the generator's loop (generate_loop.glsl) takes moves in, in order: the king's
// steps, its castles (its moves onto its own rooks), each piece's, en passant captures, then
// pawn moves by the square they land on.
#ifndef GENERATE_GROUPS_GLSL
#define GENERATE_GROUPS_GLSL
const uint GROUP_KING = 0u;
const uint GROUP_CASTLES = 1u;
const uint GROUP_KNIGHTS = 2u;
const uint GROUP_BISHOP_MOVERS = 3u;
const uint GROUP_ROOK_MOVERS = 4u;
const uint GROUP_EN_PASSANT = 5u;
// The pawn groups, PAWN_PUSHES to PAWN_CAPTURES_WEST from this one on.
const uint GROUP_PAWNS = 6u;
const uint GROUP_COUNT = GROUP_PAWNS + 4u;
#endif
