#include "d.h"
__device__ __noinline__ int extra_dump(const char* tag, const float* p, int n) {
  float* tmp = (float*)pool_get(n * sizeof(float));
  for (int i = 0; i < n; ++i) { tmp[i] = checked_div(p[i], 2.f); printf("%s[%d]=%.3f\n", tag, i, tmp[i]); }
  pool_put(tmp);
  return n;
}
