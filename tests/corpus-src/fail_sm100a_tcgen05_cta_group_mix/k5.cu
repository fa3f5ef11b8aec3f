#include <cstdint>
extern __device__ uint32_t tmem_alloc(uint32_t *slot, uint32_t cols);
extern __device__ uint32_t tmem_alloc2(uint32_t *slot, uint32_t cols);
__global__ void mixA(uint32_t *out) { __shared__ uint32_t s[2]; out[0] = tmem_alloc(&s[0], 32) + tmem_alloc2(&s[1], 32); }
__global__ void mixB(uint32_t *out) { __shared__ uint32_t s[2]; out[0] = tmem_alloc2(&s[1], 32) + tmem_alloc(&s[0], 32); }
__global__ void ownmix(uint32_t *out) {
  __shared__ uint32_t slot;
  uint32_t s = (uint32_t)__cvta_generic_to_shared(&slot);
  if (threadIdx.x < 32) asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"(s));
  __syncthreads();
  out[threadIdx.x] = tmem_alloc2(&slot, 32);
}
