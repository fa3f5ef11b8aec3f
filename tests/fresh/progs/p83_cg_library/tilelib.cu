#include "cgx.h"
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
__device__ __noinline__ int tile_classify(const int *keys, int *out, int i) {
  cg::thread_block block = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(block);
  int k = keys[i];
  auto same = cg::labeled_partition(cg::coalesced_threads(), k & 7);
  int rank_in_label = same.thread_rank();
  auto half = cg::binary_partition(t16, k < 0);
  int pre = cg::inclusive_scan(half, 1);
  int leader = cg::invoke_one_broadcast(same, [&] { return k * 3; });
  cg::invoke_one(t16, [&] { atomicAdd(out + (i & 63), 1); });
  int nb = t16.shfl_xor(k, 8) + t16.shfl_down(k, 1);
  return rank_in_label + pre + leader + nb + (int)t16.ballot(k & 1) + (t16.any(k == 0) ? 1 : 0);
}
__device__ __noinline__ float staged_tile_sum(const float *src, int n) {
  extern __shared__ float stage[];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, stage, src + blockIdx.x * n, sizeof(float) * n);
  cg::wait(block);
  auto t32 = cg::tiled_partition<32>(block);
  float v = 0.f;
  for (int j = t32.thread_rank(); j < n; j += 32) v += stage[j];
  return cg::reduce(t32, v, cg::plus<float>());
}
