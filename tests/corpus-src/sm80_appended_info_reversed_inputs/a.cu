// Memory barriers (init1) and barriers (g); cicc writes g's sections before init1's.
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void init1(uint64_t *bp, int *op);
__device__ __noinline__ void g(uint64_t *bp, int *op);
__device__ __noinline__ void f(uint64_t *bp, int *op);
__device__ __noinline__ void init1(uint64_t *bp, int *op) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bp))); }
__device__ __noinline__ void g(uint64_t *bp, int *op) { __syncthreads(); }
