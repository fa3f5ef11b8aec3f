#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__device__ float consume(const float* tile, int n);
__global__ void staged(const float* in, float* out, int tiles) {
  __shared__ float buf[2][256];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0.f;
  for (int t = 0; t < tiles; ++t) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[t & 1], in + t * 256, sizeof(float) * 256, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    acc += consume(buf[t & 1], 256);
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
