#include "f.h"
__device__ int geo_calls;
__constant__ float geo_k[4] = {3.14159f, 2.71828f, 1.41421f, 1.73205f};
__device__ __noinline__ float geo_area(float a, float b) {
  atomicAdd(&geo_calls, 1);
#if __CUDA_ARCH__ >= 1000
  return a * b * geo_k[1];
#else
  return a * b * geo_k[0];
#endif
}
__global__ void geo_kernel(float* p) { p[threadIdx.x] = geo_area(p[threadIdx.x], 2.f) + other_pick(threadIdx.x); }
