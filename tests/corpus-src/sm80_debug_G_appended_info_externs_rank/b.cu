// d1: barriers then printf; d6: memory barriers; d2/d4: barriers and memory barriers, for k0.
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void d5(uint64_t *bp, int *op);
__device__ __noinline__ void d0(uint64_t *bp, int *op);
__device__ __noinline__ void d3(uint64_t *bp, int *op);
__device__ __noinline__ void d4(uint64_t *bp, int *op);
__device__ __noinline__ void d1(uint64_t *bp, int *op);
__device__ __noinline__ void d2(uint64_t *bp, int *op);
__device__ __noinline__ void d6(uint64_t *bp, int *op);
__device__ __noinline__ void d4(uint64_t *bp, int *op) { d2(bp+1, op); d0(bp+1, op); asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bp))); }
__device__ __noinline__ void d1(uint64_t *bp, int *op) { d0(bp+1, op); printf("d1\n"); __syncthreads(); }
__device__ __noinline__ void d2(uint64_t *bp, int *op) { __syncthreads(); asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bp))); }
__global__ void k0(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; d2(bp+1, op); o[1] = 1; }
__device__ __noinline__ void d6(uint64_t *bp, int *op) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bp))); }
