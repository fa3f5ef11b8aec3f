// k1 reaches d3 (calls b.cu's d6: an EXTERNS record naming d6, then blockIdx.z), d0, d5 and
// b.cu's d1 (barriers, printf) and d6 (memory barriers).
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void d5(uint64_t *bp, int *op);
__device__ __noinline__ void d0(uint64_t *bp, int *op);
__device__ __noinline__ void d3(uint64_t *bp, int *op);
__device__ __noinline__ void d4(uint64_t *bp, int *op);
__device__ __noinline__ void d1(uint64_t *bp, int *op);
__device__ __noinline__ void d2(uint64_t *bp, int *op);
__device__ __noinline__ void d6(uint64_t *bp, int *op);
__global__ void k1(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; d0(bp+1, op); d3(bp+1, op); d5(bp+1, op); o[1] = 1; }
__device__ __noinline__ void d5(uint64_t *bp, int *op) { d3(bp+1, op); d1(bp+1, op); }
__device__ __noinline__ void d0(uint64_t *bp, int *op) {  }
__device__ __noinline__ void d3(uint64_t *bp, int *op) { d0(bp+1, op); op[0] += blockIdx.z; d6(bp+1, op); }
