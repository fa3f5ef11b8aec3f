#include "d.h"
__device__ __noinline__ int check_range(const int* p, int n, int lo, int hi) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (p[i] < lo || p[i] > hi) { ++bad; printf("check_range: p[%d]=%d outside [%d,%d]\n", i, p[i], lo, hi); }
    assert(p[i] != 0x7fffffff);
  }
  return bad + checked_div(n, 2) + (int)checked_div(1.f, (float)n);
}
