// member m.o from folder y: fy, calls fx from the other m.o
#include "lib.h"
__device__ int y_hits;
__device__ __noinline__ float fy(float v) { atomicAdd(&y_hits, 1); return fx(v) + sqrtf(v); }
__global__ void y_kernel(float* p, int n) { for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = fy(p[i]); }
