// A transpose-through-registers kernel (plain build) using the matrix helpers.
#include <cstdint>
__device__ void load_x4(const void *smem, uint32_t r[4]);
__device__ void store_x4(void *smem, const uint32_t r[4]);
__device__ void store_x1_trans(void *smem, uint32_t r);

__global__ void shuffle_tiles(const uint16_t *in, uint16_t *out) {
  __shared__ __align__(16) uint16_t tile[4 * 64];
  __shared__ __align__(16) uint16_t back[4 * 64];
  for (int i = threadIdx.x; i < 256; i += 32) tile[i] = in[blockIdx.x * 256 + i];
  __syncwarp();
  uint32_t r[4];
  load_x4(&tile[(threadIdx.x & 31) * 8], r);
  r[0] ^= r[3];
  store_x4(&back[(threadIdx.x & 31) * 8], r);
  store_x1_trans(&back[(threadIdx.x & 7) * 8], r[1]);
  __syncwarp();
  for (int i = threadIdx.x; i < 256; i += 32) out[blockIdx.x * 256 + i] = back[i];
}
