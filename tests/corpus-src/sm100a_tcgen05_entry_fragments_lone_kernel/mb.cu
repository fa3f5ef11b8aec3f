#include <cstdint>
#include <cstdio>
__device__ __noinline__ void mb_init(uint64_t *bar) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(bar);
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(s), "r"(32));
  if (blockIdx.z == 3) printf("z %d\n", (int)threadIdx.x);
}
