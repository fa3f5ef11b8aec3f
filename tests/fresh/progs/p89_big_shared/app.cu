#include "sh.h"
#include <cstdio>
__global__ void big_tile(const float *g, float *o) {
  __shared__ float tile[10240];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = threadIdx.x; k < 10240; k += blockDim.x) tile[k] = g[k];
  __syncthreads();
  o[i] = tile[threadIdx.x * 3] + odd_sizes(i);
}
__global__ void helper_tile(const float *g, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = big_helper(g, i) + mid_helper(g, i) + swizzled(g, i);
}
__global__ void dyn_only(const float *g, float *o, int n) {
  extern __shared__ float4 dyn4[];
  extern __shared__ double dyn8[];
  extern __shared__ char dyn1[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn4[threadIdx.x] = make_float4(g[i], 0, 0, 0);
  dyn1[n * 16 + threadIdx.x] = 1;
  __syncthreads();
  o[i] = dyn4[threadIdx.x ^ 1].x + (float)dyn8[threadIdx.x] + dyn1[threadIdx.x];
}
__global__ void templ(const float *g, const double *d, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = tmpl_stage(g, i) + (float)tmpl_stage(d, i) + swizzled(g, i);
}
int main() {
  float *g, *o; double *d;
  cudaMalloc(&g, 1 << 18); cudaMalloc(&o, 1 << 18); cudaMalloc(&d, 1 << 18);
  big_tile<<<4, 256>>>(g, o);
  helper_tile<<<4, 256>>>(g, o);
  cudaFuncSetAttribute(dyn_only, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
  dyn_only<<<4, 256, 160 * 1024>>>(g, o, 256);
  templ<<<4, 256>>>(g, d, o);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
