#include <cstdint>
extern __device__ uint32_t tmem_alloc(uint32_t *slot, uint32_t cols);
extern __device__ void mb_init(uint64_t *bar);
__global__ void lone3(uint32_t *out) {
  __shared__ uint32_t slot; __shared__ uint64_t bar;
  mb_init(&bar);
  out[threadIdx.x] = tmem_alloc(&slot, 32);
}
