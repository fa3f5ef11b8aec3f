// cuda::memcpy_async into shared memory with cuda::barrier (block scope) and
// cuda::device::barrier_arrive_tx / memcpy_async_tx; a double-buffered loop; the variable
// and epilogue tma.cu names.
#include <cuda/barrier>
#include <cuda/std/utility>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#pragma nv_diag_suppress static_var_with_dynamic_init
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__device__ int tiles_done;
__device__ float tile_epilogue(float v) { return v > 0.f ? v : 0.01f * v; }

__global__ void staged_sum(const float* in, float* out, int chunks) {
  __shared__ alignas(16) float buf[2][512];
  __shared__ block_barrier bars[2];
  auto blk = cg::this_thread_block();
  if (blk.thread_rank() == 0) { init(&bars[0], blk.size()); init(&bars[1], blk.size()); }
  blk.sync();
  cuda::memcpy_async(blk, buf[0], in, cuda::aligned_size_t<16>(sizeof(buf[0])), bars[0]);
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    int cur = c & 1, nxt = cur ^ 1;
    if (c + 1 < chunks) cuda::memcpy_async(blk, buf[nxt], in + (c + 1) * 512, cuda::aligned_size_t<16>(sizeof(buf[0])), bars[nxt]);
    bars[cur].arrive_and_wait();
    for (int i = blk.thread_rank(); i < 512; i += blk.size()) acc += tile_epilogue(buf[cur][i]);
    blk.sync();
  }
  atomicAdd(out, acc);
}

__global__ void tx_copy(const int4* src, int4* dst) {
  __shared__ alignas(16) int4 smem[128];

  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token t;
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(smem, src + blockIdx.x * 128, cuda::aligned_size_t<16>(sizeof(smem)), bar);
    t = cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem));
  } else {
    t = bar.arrive();
  }
  bar.wait(cuda::std::move(t));
  dst[blockIdx.x * 128 + threadIdx.x] = smem[threadIdx.x];
  if (threadIdx.x == 0) atomicAdd(&tiles_done, 1);
}
