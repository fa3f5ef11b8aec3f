#include "common.cuh"
__device__ __noinline__ float normalize_all(float* v, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += squash(v[i]);
  for (int i = 0; i < n; ++i) v[i] /= s;
  atomicAdd(&g_calls, 1ull);
  return s;
}
__global__ void normalize_kernel(float* v, int n) { normalize_all(v, n); }
