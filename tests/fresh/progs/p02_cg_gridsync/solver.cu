#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern __device__ float g_residual;
__device__ float jacobi_row(const float* A, const float* x, const float* b, int n, int row);

__global__ void jacobi(const float* A, const float* b, float* x0, float* x1, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block blk = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(blk);
  for (int it = 0; it < iters; ++it) {
    float local = 0.f;
    for (int r = grid.thread_rank(); r < n; r += grid.size()) {
      float nx = jacobi_row(A, x0, b, n, r);
      local += fabsf(nx - x0[r]);
      x1[r] = nx;
    }
    float w = cg::reduce(warp, local, cg::plus<float>());
    if (warp.thread_rank() == 0) atomicAdd(&g_residual, w);
    grid.sync();
    float* t = x0; x0 = x1; x1 = t;
  }
}
