#include "gc.h"
namespace cg = cooperative_groups;
__device__ __noinline__ int warp_stats(const Params* p, int v) {
  unsigned m = __activemask();
  unsigned peers = __match_any_sync(m, v & 15);
  int pred; unsigned all = __match_all_sync(m, p->tag[v & 7], &pred);
  int s = __reduce_add_sync(m, v) + (int)__reduce_min_sync(m, (unsigned)v) + (int)__reduce_max_sync(m, (unsigned)v);
  s ^= (int)(__reduce_and_sync(m, (unsigned)v) | __reduce_or_sync(m, (unsigned)v)) + (int)__reduce_xor_sync(m, (unsigned)v);
  s += __popc(peers) + pred + (all != 0) + __popc(__ballot_sync(m, v > p->n)) + __any_sync(m, v == 3) + __all_sync(m, v >= 0);
  s += __shfl_xor_sync(m, s, 1, 16) + __shfl_up_sync(m, s, 2, 8) + __shfl_down_sync(m, s, 4) + __shfl_sync(m, s, p->tag[0], 32);
  return s;
}
__device__ __noinline__ float warp_sum(const Params* p, float v) {
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  float r = cg::reduce(t, v * p->scale, cg::plus<float>());
  int ir = cg::reduce(t, (int)v, cg::greater<int>());
  return r + ir + p->w[t.thread_rank() % 24];
}
template __global__ void gc_tmpl<64>(const __grid_constant__ Params);
