#include "e.h"
__device__ int rdc_total;
__device__ __noinline__ float rdc_poly(float x) { return ((x * 0.5f + 1.f) * x - 2.f) * x + (float)(rdc_total & 1); }
__global__ void rdc_kernel(float* o, int n) { o[threadIdx.x] = rdc_poly(o[threadIdx.x]) + n; }
