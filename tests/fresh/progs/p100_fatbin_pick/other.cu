#include "f.h"
#ifdef __CUDA_ARCH__
#define ARCH __CUDA_ARCH__
#else
#define ARCH 0
#endif
__device__ __noinline__ int other_pick(int v) { return (v * 2654435761u) >> (ARCH / 100); }
__global__ void other_kernel(int* p) { p[threadIdx.x] = other_pick(p[threadIdx.x]) + geo_calls; }
