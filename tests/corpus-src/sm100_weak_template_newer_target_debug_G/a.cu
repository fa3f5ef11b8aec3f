#include "w.h"
__device__ __noinline__ int helper_a(int x) { return x ^ 5; }
__global__ void ka(int *o) { o[threadIdx.x] = scale(helper_a((int)threadIdx.x), 7); }
