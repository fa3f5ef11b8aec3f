// Tensor memory (tcgen05) on sm_100a: allocation, a load, dealloc, called across TUs.
#include <cstdint>
__device__ __noinline__ uint32_t tmem_alloc(uint32_t *slot, uint32_t cols) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(slot);
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" :: "r"(s), "r"(cols));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  return *slot;
}
__device__ __noinline__ void tmem_free(uint32_t taddr, uint32_t cols) {
  __syncthreads();
  if (threadIdx.x < 32)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(taddr), "r"(cols));
}
__device__ __noinline__ uint32_t tmem_load1(uint32_t taddr) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(v) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  return v;
}
__device__ __noinline__ void tmem_store1(uint32_t taddr, uint32_t v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" :: "r"(taddr), "r"(v));
  asm volatile("tcgen05.wait::st.sync.aligned;");
}
