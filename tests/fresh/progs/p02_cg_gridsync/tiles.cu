#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
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
