#include "lib.h"
template <int D> __device__ __noinline__ float fold(const float *v, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += clampv(v[i], -1.f * D, 1.f * D);
  return s;
}
__device__ float tree_sum(const float *v, int lo, int hi, int depth) {
  if (hi - lo <= 8 || depth > 6) return depth & 1 ? fold<2>(v + lo, hi - lo) : fold<4>(v + lo, hi - lo);
  int mid = (lo + hi) / 2;
  return tree_sum(v, lo, mid, depth + 1) + tree_sum(v, mid, hi, depth + 1);
}
