// Re-scheduled kernels (first LDC R1 with a write scoreboard) holding mbarrier operations: nvlink
// drops the fence placeholders but keeps the MEMBAR.ALL.CTA before each GPU- or system-scope
// MEMBAR (kernels without mbarrier operations lose it).
#include <cstdint>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int g_done;
__device__ float g_residual;

__device__ __forceinline__ void init(uint32_t mb) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(mb));
}

// mbarrier.init alone, after the fence.
__global__ void init_after_fence(float* data, int n) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.f;
  __threadfence();
  if (threadIdx.x == 0) atomicAdd(&g_done, 1);
  __syncthreads();
  if (threadIdx.x == 0) init(mb);
}

// A grid barrier (guarded MEMBAR.ALL.GPU).
__global__ void grid_barrier(float* data, int n) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) init(mb);
  cg::grid_group g = cg::this_grid();
  if (g.thread_rank() == 0) g_residual = 0.f;
  g.sync();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.f;
}

// A system-scope fence, then an arrive.
__global__ void system_fence(float* data, int n) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) init(mb);
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.f;
  __threadfence_system();
  if (threadIdx.x == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(mb) : "memory");
}

// Work stealing: try_cancel (UGETNEXTWORKID), arrive.expect_tx, try_wait, then a GPU fence.
__global__ void steal(float* data, int n) {
  __shared__ __align__(16) uint4 result;
  __shared__ __align__(8) uint64_t bar;
  uint32_t res = (uint32_t)__cvta_generic_to_shared(&result);
  uint32_t mb = (uint32_t)__cvta_generic_to_shared(&bar);
  int block = blockIdx.x;
  uint32_t phase = 0;
  if (threadIdx.x == 0) init(mb);
  __syncthreads();
  while (true) {
    if (threadIdx.x == 0) {
      asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];"
                   :: "r"(res), "r"(mb) : "memory");
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" :: "r"(mb) : "memory");
    }
    int i = block * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= 2.f;
    uint32_t ok = 0;
    while (!ok)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(mb), "r"(phase) : "memory");
    phase ^= 1;
    uint32_t canceled, x;
    asm volatile("{ .reg .b128 r; .reg .pred p; ld.shared.b128 r, [%2];"
                 " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r;"
                 " selp.u32 %0, 1, 0, p;"
                 " clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %1, r; }"
                 : "=r"(canceled), "=r"(x) : "r"(res) : "memory");
    __syncthreads();
    if (!canceled) break;
    block = x;
  }
  __threadfence();
  if (threadIdx.x == 0) atomicAdd(&g_done, 1);
}
