#include <cuda_fp16.h>
#include <cuda_bf16.h>
__device__ unsigned short g_lock16;
__device__ __half2 g_h2acc;
__device__ __nv_bfloat16 g_bfacc;
__device__ unsigned long long g_max64 = 0;
__device__ long long g_min64 = 0x7fffffffffffffffll;
__device__ void lock16(unsigned short *l) {
  unsigned ns = 8;
  while (atomicCAS(l, (unsigned short)0, (unsigned short)1) != 0) { __nanosleep(ns); if (ns < 256) ns *= 2; }
  __threadfence();
}
__device__ void unlock16(unsigned short *l) { __threadfence(); atomicExch((unsigned int *)((size_t)l & ~(size_t)3), 0u); }
__device__ __noinline__ void acc_half(__half2 v, __nv_bfloat16 b) { atomicAdd(&g_h2acc, v); atomicAdd(&g_bfacc, b); }
