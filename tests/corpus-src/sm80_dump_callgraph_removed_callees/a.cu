#include "util.cuh"
__device__ int g_used_a[16];
__device__ int g_dead_a[1024];
__constant__ float c_dead_a[512];
__device__ int dead_fn_a(int x) { return g_dead_a[x & 1023] + (int)c_dead_a[x & 511]; }
__global__ void dead_kernel_a(int* o) { o[0] = dead_fn_a(o[1]) + clampv<int>(o[2], 0, 9); }
__global__ void live_a(int* o) { o[threadIdx.x] = clampv<int>(o[threadIdx.x], 0, 100) + hash32(threadIdx.x) + g_used_a[threadIdx.x & 15]; }
