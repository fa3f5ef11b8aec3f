#include "gc.h"
__global__ void __launch_bounds__(128, 4) stats(const __grid_constant__ Params p, int* res) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Params* pp = &p;
  if (i < p.n) res[i] = warp_stats(pp, p.keys[i]);
}
__global__ void __launch_bounds__(256, 2, 4) sums(const __grid_constant__ Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = warp_sum(&p, p.w[i % 24]);
}
__global__ void __maxnreg__(64) tight(const __grid_constant__ Params p, float* o) { o[threadIdx.x] = warp_sum(&p, 1.f) * warp_stats(&p, threadIdx.x); }
__global__ void plain_copy(Params p) { p.out[threadIdx.x] = p.w[threadIdx.x % 24]; }
