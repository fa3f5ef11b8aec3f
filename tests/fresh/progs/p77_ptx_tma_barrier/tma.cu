// TMA through cuda::ptx: a 2-D tensor map passed as a __grid_constant__ parameter, mbarrier
// init / arrive.expect_tx / try_wait, bulk tensor loads and a bulk tensor store, proxy fences.
#include <cuda/ptx>
#include <cuda/barrier>
#include <cudaTypedefs.h>
namespace ptx = cuda::ptx;

extern __device__ int tiles_done;          // pipeline.cu
__device__ float tile_epilogue(float v);   // pipeline.cu

__global__ void tma_scale(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out, float s) {
  __shared__ alignas(128) float tile[32][32];
  __shared__ uint64_t bar;
  int x = blockIdx.x * 32, y = blockIdx.y * 32;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t c[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, &tile, &in, c, &bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) tile[i / 32][i % 32] = tile_epilogue(tile[i / 32][i % 32] * s);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t c[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out, c, &tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    atomicAdd(&tiles_done, 1);
  }
}

__global__ void bulk_copy(const float4* src, float4* dst, int n) {
  __shared__ alignas(16) float4 buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) { ptx::mbarrier_init(&bar, 1); ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, src + blockIdx.x * 256, sizeof(buf), &bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(buf));
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  dst[blockIdx.x * 256 + threadIdx.x] = buf[threadIdx.x];
}
