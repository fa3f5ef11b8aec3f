#include "f.h"
#ifdef __CUDA_ARCH__
#define ARCH __CUDA_ARCH__
#else
#define ARCH 0
#endif
__device__ __noinline__ double ptx_only(double x) { return x * x - geo_area((float)x, 1.f) + ARCH; }
__global__ void ptx_kernel(double* p) { p[threadIdx.x] = ptx_only(p[threadIdx.x]); }
