#include "sh.h"
__device__ __noinline__ float swizzled(const float *g, int i) {
  __shared__ __align__(1024) float sw[2048];
  __shared__ char tag[3];
  __shared__ __align__(128) int pad[5];
  sw[threadIdx.x & 2047] = g[i];
  if (threadIdx.x < 3) tag[threadIdx.x] = (char)i;
  if (threadIdx.x < 5) pad[threadIdx.x] = i;
  __syncthreads();
  return sw[threadIdx.x ^ 1] + tag[threadIdx.x % 3] + pad[threadIdx.x % 5];
}
__device__ __noinline__ float odd_sizes(int i) {
  __shared__ short s7[7];
  __shared__ double d3[3];
  if (threadIdx.x < 7) s7[threadIdx.x] = (short)i;
  if (threadIdx.x < 3) d3[threadIdx.x] = i * 0.5;
  __syncthreads();
  return s7[threadIdx.x % 7] + (float)d3[threadIdx.x % 3];
}
