// Two kernels: k0 reaches d0 (its own records: NUM_MBARRIERS, then CTAIDZ_USED), d2 (barriers,
// under d3) and d4 (printf); the image holds their .nv.info sections in the order d0, d2, d3, d4.
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void d0(uint64_t *bp, int *op);
__device__ __noinline__ void d3(uint64_t *bp, int *op);
__device__ __noinline__ void d4(uint64_t *bp, int *op);
__device__ __noinline__ void d2(uint64_t *bp, int *op);
__device__ __noinline__ void d1(uint64_t *bp, int *op);
__device__ __noinline__ void d0(uint64_t *bp, int *op) { op[0] += blockIdx.z; asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bp))); }
__global__ void k0(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; d4(bp+1, op); d0(bp+1, op); d3(bp+1, op); o[1] = 1; }
__device__ __noinline__ void d3(uint64_t *bp, int *op) { d2(bp+1, op); d1(bp+1, op); }
__device__ __noinline__ void d4(uint64_t *bp, int *op) { printf("d4\n"); d3(bp+1, op); }
__global__ void k1(int *o) { __shared__ uint64_t bar[4]; uint64_t *bp = bar; int *op = o; d4(bp+1, op); o[1] = 1; }
__device__ __noinline__ void d2(uint64_t *bp, int *op) { __syncthreads(); }
__device__ __noinline__ void d1(uint64_t *bp, int *op) {  }
