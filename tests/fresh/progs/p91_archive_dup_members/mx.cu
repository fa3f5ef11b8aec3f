// member m.o from folder x: fx and a table
#include "lib.h"
__device__ int x_hits;
__device__ float x_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ __noinline__ float fx(float v) { atomicAdd(&x_hits, 1); return v * x_table[(int)v & 7]; }
__global__ void x_kernel(float* p) { p[threadIdx.x] = fx(p[threadIdx.x]); }
