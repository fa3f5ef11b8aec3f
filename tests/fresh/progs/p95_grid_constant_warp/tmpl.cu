#include "gc.h"
template __global__ void gc_tmpl<64>(const __grid_constant__ Params);
template __global__ void gc_tmpl<256>(const __grid_constant__ Params);
__global__ void __maxnreg__(48) capped(const __grid_constant__ Params p, int* out) {
  out[threadIdx.x] = warp_stats(&p, p.keys[threadIdx.x]) + p.tag[threadIdx.x & 7];
}
