#include "util.cuh"
__device__ int dead_fn_b(int x) { return x * 7; }
__device__ int live_helper_b(int x) { return clampv<float>(x, 0.f, 1.f) + hash32(x); }
__global__ void live_b(int* o) { o[threadIdx.x] = live_helper_b(o[threadIdx.x]) + clampv<long long>(o[0], 1, 2); }
static __global__ void static_kernel_b(int* o) { o[0] = dead_fn_b(3); }
void* keep_static_kernel() { return (void*)static_kernel_b; }
