#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
struct Params { int n; float scale; const int* keys; float* out; float w[24]; int tag[8]; };
__device__ int warp_stats(const Params* p, int v);
__device__ float warp_sum(const Params* p, float v);
template <int B> __global__ void __launch_bounds__(B) gc_tmpl(const __grid_constant__ Params p) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < p.n) p.out[i] = warp_sum(&p, p.w[i % 24]) + B;
}
