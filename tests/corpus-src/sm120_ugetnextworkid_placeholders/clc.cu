// Work requests of cluster launch control: clusterlaunchcontrol.try_cancel is
// `UGETNEXTWORKID.SELFCAST [URa], [URa+1]` (response, mbarrier), issued from an ELECT loop.
// `__threadfence()` leaves fence placeholders before the GPU-scope MEMBAR.
#include <cstdint>
__device__ int g_done;

__device__ __forceinline__ void try_cancel(uint32_t res, uint32_t mb) {
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];"
               :: "r"(res), "r"(mb) : "memory");
}

__global__ void request(float* data, int n) {
  __shared__ __align__(16) uint4 result;
  __shared__ __align__(8) uint64_t bar;
  uint32_t res = (uint32_t)__cvta_generic_to_shared(&result);
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  if (n > 4) try_cancel(res, mb);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.f;
  __threadfence();
  if (threadIdx.x == 0) atomicAdd(&g_done, 1);
}

// The request inside a grid-stride loop, block- and system-scope fences after it.
__global__ void strided_request(int* data, int n) {
  __shared__ __align__(16) uint4 result;
  __shared__ __align__(8) uint64_t bar;
  uint32_t res = (uint32_t)__cvta_generic_to_shared(&result);
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  int acc = 0;
  for (int k = blockIdx.x; k < n; k += gridDim.x) {
    acc += data[k] ^ k;
    if (k == n / 2) try_cancel(res, mb);
  }
  __threadfence_block();
  atomicAdd(&data[0], acc);
  __threadfence_system();
  if (threadIdx.x == 0) atomicAdd(&g_done, acc);
}
