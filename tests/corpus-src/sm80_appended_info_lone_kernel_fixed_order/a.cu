#include <cstdint>
// A lone kernel reaching blockIdx.z three calls down, memory barriers and barriers two calls
// down (a1 before b1 in the walk and in the image).
__device__ __noinline__ void a1(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(b))); }
__device__ __noinline__ void a21(uint64_t *b, int *o) { o[0] += blockIdx.z; }
__device__ __noinline__ void a2(uint64_t *b, int *o) { a21(b + 1, o); }
__device__ __noinline__ void a(uint64_t *b, int *o) { a1(b); a2(b + 1, o); }
__device__ __noinline__ void b1(uint64_t *b) { __syncthreads(); }
__device__ __noinline__ void bb(uint64_t *b) { b1(b + 1); }
__global__ void kq(int *o) { __shared__ uint64_t bar[4]; a(bar, o); bb(bar); o[1] = 1; }
