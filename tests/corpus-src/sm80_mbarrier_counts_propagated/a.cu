#include <cstdint>
__device__ __noinline__ void init1(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(b))); }
__device__ __noinline__ void init2(uint64_t *b) { asm volatile("mbarrier.init.shared.b64 [%0], 2;" :: "r"((unsigned)__cvta_generic_to_shared(b))); asm volatile("mbarrier.init.shared.b64 [%0], 3;" :: "r"((unsigned)__cvta_generic_to_shared(b+1))); }
__device__ __noinline__ void both(uint64_t *b) { init1(b); init2(b + 2); }
__global__ void k1(int *o) { __shared__ uint64_t bar[4]; init1(bar); o[0] = 1; }
__global__ void k2(int *o) { __shared__ uint64_t bar[4]; init1(bar); init2(bar + 1); o[0] = 2; }
__global__ void k3(int *o) { __shared__ uint64_t bar[4]; both(bar); o[0] = 3; }
__global__ void k4(int *o) { __shared__ uint64_t bar[4]; asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(bar))); init2(bar+1); o[0] = 4; }
