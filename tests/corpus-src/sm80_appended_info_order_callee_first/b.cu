#include <cstdint>
__device__ __noinline__ void init1(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(b))); }
__device__ __noinline__ void f(uint64_t *b) { init1(b); }
__device__ __noinline__ void g(uint64_t *b) { init1(b+1); __syncthreads(); }
extern __device__ int ext_fn(int);
__global__ void kd(int *o) { __shared__ uint64_t bar[4]; f(bar); g(bar); o[0] = ext_fn(o[1]); }
