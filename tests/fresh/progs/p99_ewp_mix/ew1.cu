#include "e.h"
__constant__ float ew1_w[8] = {1, 2, 3, 4, 4, 3, 2, 1};
__device__ __noinline__ float ew1_norm(const float* p, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += rdc_poly(p[i]) * ew1_w[i & 7];
  s += n;
  return sqrtf(s);
}
__global__ void ew1_kernel(const float* p, float* o, int n) { o[blockIdx.x] = ew1_norm(p + blockIdx.x * n, n); }
