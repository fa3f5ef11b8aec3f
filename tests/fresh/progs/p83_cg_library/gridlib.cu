#include "cgx.h"
#include <cooperative_groups/reduce.h>
__device__ __noinline__ float grid_sum(const float *in, float *partials, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  float acc = 0.f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) acc += in[i];
  acc = cg::reduce(warp, acc, cg::plus<float>());
  __shared__ float wsum[32];
  if (warp.thread_rank() == 0) wsum[warp.meta_group_rank()] = acc;
  block.sync();
  if (block.thread_rank() == 0) {
    float b = 0.f;
    for (unsigned w = 0; w < warp.meta_group_size(); ++w) b += wsum[w];
    partials[grid.block_rank()] = b;
  }
  grid.sync();
  float total = 0.f;
  for (unsigned b = 0; b < grid.num_blocks(); ++b) total += partials[b];
  return total;
}
__device__ __noinline__ void grid_normalize(float *data, int n, float total) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) data[i] /= total;
  grid.sync();
}
