#include <cstdint>
#include <cstdio>
__device__ __noinline__ void init1(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(b))); }
__device__ __noinline__ void f(uint64_t *b) { init1(b); }
__device__ __noinline__ void g(uint64_t *b) { __syncthreads(); }
__global__ void kp(int *o) { __shared__ uint64_t bar[4]; f(bar); g(bar); printf("x\n"); o[0] = 1; }
__global__ void kq(int *o) { __shared__ uint64_t bar[4]; f(bar); g(bar); o[0] = 1; }
__device__ __noinline__ void gp(uint64_t *b) { __syncthreads(); printf("y\n"); }
__global__ void kr(int *o) { __shared__ uint64_t bar[4]; f(bar); gp(bar); o[0] = 1; }
