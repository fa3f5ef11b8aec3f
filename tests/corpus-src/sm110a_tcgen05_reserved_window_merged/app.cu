#include <cstdint>
extern __device__ uint32_t tmem_alloc(uint32_t *slot, uint32_t cols);
extern __device__ void tmem_free(uint32_t taddr, uint32_t cols);
extern __device__ uint32_t tmem_load1(uint32_t taddr);
extern __device__ void tmem_store1(uint32_t taddr, uint32_t v);
__global__ void __launch_bounds__(128) roundtrip(uint32_t *out) {
  __shared__ uint32_t slot;
  uint32_t t = tmem_alloc(&slot, 32);
  uint32_t lane_base = t + ((threadIdx.x / 32) * 32 << 16);
  tmem_store1(lane_base, threadIdx.x * 3u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tmem_load1(lane_base);
  tmem_free(t, 32);
}
__global__ void alloc_only(uint32_t *out) {
  __shared__ uint32_t slot;
  uint32_t t = tmem_alloc(&slot, 64);
  if (threadIdx.x == 0) out[blockIdx.x] = t;
  tmem_free(t, 64);
}
