#include "common.cuh"
__device__ float dyn_reduce_f(int n) {
  extern __shared__ float sf[];
  sf[threadIdx.x] = threadIdx.x * coeffs<float>[threadIdx.x & 3];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; i++) s += sf[i];
  return s;
}
__device__ unary_t g_unary[3] = {scaled<1>, scaled<2>, scaled<3>};
__global__ void ka(int *o) { Registry<int>::bump(o[0]); o[1] = block_sum<int, 32>(o[2]); Registry<float>::bump(1.f); }
