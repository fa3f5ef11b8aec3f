#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float g_residual;

__device__ float jacobi_row(const float* A, const float* x, const float* b, int n, int row) {
  float s = b[row];
  for (int j = 0; j < n; ++j) if (j != row) s -= A[row * n + j] * x[j];
  return s / A[row * n + row];
}

__global__ void reset_residual() {
  cg::grid_group g = cg::this_grid();
  if (g.thread_rank() == 0) g_residual = 0.f;
  g.sync();
}
