#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__device__ float consume(const float* tile, int n) { float s = 0; for (int i = threadIdx.x; i < n; i += blockDim.x) s += tile[i]; return s; }
__global__ void with_barrier(const float* in, float* out) {
  __shared__ float tile[512];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in, sizeof(tile), bar);
  bar.arrive_and_wait();
  cg::memcpy_async(block, tile, in + 512, sizeof(float) * 512);
  cg::wait(block);
  out[threadIdx.x] = consume(tile, 512);
}
