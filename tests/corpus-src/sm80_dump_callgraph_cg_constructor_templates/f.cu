// A device function reducing over a warp tile with cooperative groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ float tile_sum(float v) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  return cg::reduce(w, v, cg::plus<float>());
}
