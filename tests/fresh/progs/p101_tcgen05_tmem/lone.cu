#include <cstdint>
extern __device__ uint32_t tmem_alloc(uint32_t *slot, uint32_t cols);
extern __device__ void tmem_free(uint32_t taddr, uint32_t cols);
__global__ void lone(uint32_t *out) {
  __shared__ uint32_t slot;
  uint32_t t = tmem_alloc(&slot, 32);
  out[threadIdx.x] = t;
  tmem_free(t, 32);
}
