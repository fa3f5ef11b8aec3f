#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__device__ float g_residual;

// A grid barrier: a GPU-scope fence with its placeholders, in a kernel nvlink re-schedules.
__global__ void reset_residual() {
  cg::grid_group g = cg::this_grid();
  if (g.thread_rank() == 0) g_residual = 0.f;
  g.sync();
}

// Tile scan, shuffles and a block barrier: re-scheduled, no placeholders.
__global__ void tile_scan(int* data) {
  auto blk = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(blk);
  int v = data[blk.thread_rank()];
  v = cg::inclusive_scan(t16, v);
  auto active = cg::coalesced_threads();
  if (v & 1) v += active.shfl(v, 0);
  blk.sync();
  data[blk.thread_rank()] = v + t16.meta_group_rank();
}
