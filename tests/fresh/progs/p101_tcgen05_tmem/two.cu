#include <cstdint>
__device__ __noinline__ uint32_t tmem_alloc2(uint32_t *slot, uint32_t cols) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(slot);
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" :: "r"(s), "r"(cols));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;");
  }
  __syncthreads();
  return *slot;
}
__device__ __noinline__ void tmem_free2(uint32_t taddr, uint32_t cols) {
  if (threadIdx.x < 32)
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" :: "r"(taddr), "r"(cols));
}
