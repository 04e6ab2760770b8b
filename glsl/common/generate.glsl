// The move generator: calls `void on_move(Pos parent, uint from, uint to, uint kind)`, which
// the including shader defines after including movegen.glsl, for every legal move of `p`.
#ifndef GENERATE_GLSL
#define GENERATE_GLSL

void generate_moves(Pos p) {
#define SINK_PIECE(from, targets) { uint64_t t_ = (targets); while (t_ != uint64_t(0)) { uint to_ = lsb64(t_); t_ &= t_ - uint64_t(1); on_move(p, (from), to_, KIND_NORMAL); } }
#define SINK_PAWNS(targets, offset, kind) { uint64_t t_ = (targets); while (t_ != uint64_t(0)) { uint to_ = lsb64(t_); t_ &= t_ - uint64_t(1); on_move(p, uint(int(to_) - (offset)), to_, (kind)); } }
#define SINK_PROMOS(targets, offset) { uint64_t t_ = (targets); while (t_ != uint64_t(0)) { uint to_ = lsb64(t_); t_ &= t_ - uint64_t(1); for (uint k_ = 0u; k_ < 4u; k_++) on_move(p, uint(int(to_) - (offset)), to_, KIND_PROMOTE_KNIGHT + k_); } }
#define SINK_SINGLE(from, to, kind) on_move(p, (from), (to), (kind))
#include "movegen_body.glsl"
#undef SINK_PIECE
#undef SINK_PAWNS
#undef SINK_PROMOS
#undef SINK_SINGLE
}

#endif
