#include "d.h"
__global__ void app_run(const int* data, float* f, int n) {
  int bad = check_range(data, n, 0, 1000);
  log_event(bad ? 1 : 0, "app_run", bad);
  void* scratch = pool_get(256);
  extra_dump("f", f, n < 8 ? n : 8);
  pool_put(scratch);
  assert(n > 0);
  f[threadIdx.x] = checked_div(f[threadIdx.x], 7.f) + checked_div((double)n, 2.0);
}
