#include <cstdio>
#include <cassert>
__device__ void log_value(const char* tag, int i, double v) {
  if (v != v) printf("[%s] NaN at %d\n", tag, i);
  else printf("[%s] %d -> %8.3f (%lld)\n", tag, i, v, (long long)clock64());
}
__device__ void check_range(int i, int n) { assert(i >= 0 && i < n); }
