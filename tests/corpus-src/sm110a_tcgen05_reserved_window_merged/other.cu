#include <cstdint>
extern __device__ uint32_t tmem_load1(uint32_t taddr);
__global__ void peek(const uint32_t *addrs, uint32_t *out) {
  out[threadIdx.x] = tmem_load1(addrs[blockIdx.x]);
}
__global__ void plain(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f + 1.0f;
}
