#include <cstdio>
__device__ float dbg_scale(float x);
__device__ __noinline__ float plain_fn(float x) { return x * 2.f; }
__device__ __noinline__ void dev_exit(int x) { if (x) asm volatile("exit;"); }
typedef float (*fp_t)(float);
__device__ float f1(float x) { return x + 1; }
__device__ float f2(float x) { return x * 3; }
__device__ fp_t tab[2] = { f1, f2 };
__global__ void k_plain(float *o) { o[threadIdx.x] = o[threadIdx.x] + 1.f; }
__global__ void k_empty() { }
__global__ void k_atomic(int *o) { atomicAdd(o, 1); }
__global__ void k_shared(float *o) { __shared__ float s[32]; s[threadIdx.x] = 1.f; __syncthreads(); o[0] = s[(threadIdx.x + 1) & 31]; }
__global__ void k_fence(float *o) { o[threadIdx.x] = 1.f; __threadfence(); }
__global__ void k_calls_dbg(float *o) { o[threadIdx.x] = dbg_scale(o[threadIdx.x]); }
__global__ void k_calls_plain(float *o) { o[threadIdx.x] = plain_fn(o[threadIdx.x]); }
__global__ void k_guarded_call(float *o) { if (o[threadIdx.x] > 5.f) return; o[threadIdx.x] = plain_fn(o[threadIdx.x]); }
__global__ void k_dev_exit(int *o) { dev_exit(o[threadIdx.x]); o[threadIdx.x] = 1; }
__global__ void k_indirect(float *o, int j) { o[threadIdx.x] = tab[j & 1](o[threadIdx.x]); }
__global__ void k_printf(int x) { printf("%d\n", x); }
