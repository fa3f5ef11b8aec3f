#include "sy.h"
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __noinline__ float pipelined_sum(const float *g, int chunks, int chunk) {
  extern __shared__ float buf[];
  auto pipe = cuda::make_pipeline();
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    pipe.producer_acquire();
    cuda::memcpy_async(buf + (c & 1) * chunk + threadIdx.x, g + c * chunk + threadIdx.x,
                       cuda::aligned_size_t<4>(sizeof(float)), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    __syncthreads();
    acc += buf[(c & 1) * chunk + (threadIdx.x ^ 1)];
    pipe.consumer_release();
  }
  return acc;
}
__device__ __noinline__ float roles_sum(const float *g, int chunks) {
  __shared__ float stage[2][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  const auto role = threadIdx.x < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    if (role == cuda::pipeline_role::producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[c & 1][threadIdx.x * 4], g + c * 128 + threadIdx.x * 4,
                         cuda::aligned_size_t<16>(16), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      acc += stage[c & 1][threadIdx.x & 127];
      pipe.consumer_release();
    }
  }
  return acc;
}
