// A second kernel (built with -lineinfo) using the transposing load only.
#include <cstdint>
__device__ void load_x2_trans(const void *smem, uint32_t r[2]);

__global__ void col_sums(const uint16_t *in, uint32_t *out) {
  __shared__ __align__(16) uint16_t tile[128];
  for (int i = threadIdx.x; i < 128; i += 32) tile[i] = in[i];
  __syncwarp();
  uint32_t r[2];
  load_x2_trans(&tile[(threadIdx.x & 15) * 8], r);
  out[threadIdx.x] = (r[0] & 0xffff) + (r[1] >> 16);
}
