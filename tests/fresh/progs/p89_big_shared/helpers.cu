#include "sh.h"
__device__ __noinline__ float big_helper(const float *g, int i) {
  __shared__ float h16[4096];
  for (int k = threadIdx.x; k < 4096; k += blockDim.x) h16[k] = g[(i + k) & 65535];
  __syncthreads();
  return h16[(threadIdx.x * 17) & 4095];
}
__device__ __noinline__ float mid_helper(const float *g, int i) {
  __shared__ double h8[1024];
  h8[threadIdx.x & 1023] = g[i];
  __syncthreads();
  return (float)h8[(threadIdx.x + 1) & 1023];
}
