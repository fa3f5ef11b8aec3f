#include "common.cuh"
__device__ double dyn_reduce_d(int n) {
  extern __shared__ double sd[];
  sd[threadIdx.x] = threadIdx.x * coeffs<double>[threadIdx.x & 3];
  __syncthreads();
  double s = 0;
  for (int i = 0; i < n; i++) s += sd[i];
  return s;
}
__global__ void kb(float *o) { Registry<float>::bump(o[0]); o[1] = block_sum<float, 64>(o[2]) + block_sum<int, 32>(1) + coeffs<float>[1]; o[2] = pick<2>()(o[3]); }
