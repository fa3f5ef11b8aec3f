#include "lib.h"
__device__ int a1_calls;
__device__ __noinline__ int a1_count(const int* p, int n) {
  int c = 0;
  for (int i = 0; i < n; ++i) c += __popc(p[i]);
  atomicAdd(&a1_calls, 1);
  return c;
}
