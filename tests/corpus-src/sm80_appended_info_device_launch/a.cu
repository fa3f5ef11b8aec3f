// kp launches kc and calls h (printf), g (barriers), f (memory barriers via init1, then blockIdx.z);
// kq calls f and g. libcudadevrt's kernels make more kernels in the link.
#include <cstdint>
#include <cstdio>
__device__ __noinline__ void init1(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(b))); }
__device__ __noinline__ void f(uint64_t *b, int *o) { init1(b); o[0] += blockIdx.z; }
__device__ __noinline__ void g(uint64_t *b) { __syncthreads(); }
__device__ __noinline__ void h(int *o) { printf("h %d\n", o[0]); }
__global__ void kc(int *o) { __shared__ uint64_t bar[4]; g(bar); h(o); }
__global__ void kp(int *o) { __shared__ uint64_t bar[4]; h(o); g(bar); f(bar, o); kc<<<1, 1>>>(o); }
__global__ void kq(int *o) { __shared__ uint64_t bar[4]; f(bar, o); g(bar); }
