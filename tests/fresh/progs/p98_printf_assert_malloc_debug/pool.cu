#include "d.h"
#include <cstring>
__device__ unsigned long long pool_bytes;
__device__ __noinline__ void* pool_get(size_t n) {
  void* p = malloc(n);
  if (!p) { printf("pool_get(%llu) failed\n", (unsigned long long)n); __trap(); }
  memset(p, 0, n);
  atomicAdd(&pool_bytes, (unsigned long long)n);
  return p;
}
__device__ __noinline__ void pool_put(void* p) { free(p); }
__global__ void pool_kernel(int* out, int n) {
  int* a = (int*)pool_get(n * sizeof(int));
  int* b = (int*)pool_get(n * sizeof(int));
  for (int i = 0; i < n; ++i) a[i] = checked_div(i + 10, (i & 3) + 1);
  memcpy(b, a, n * sizeof(int));
  out[threadIdx.x] = b[threadIdx.x % n];
  pool_put(a); pool_put(b);
}
