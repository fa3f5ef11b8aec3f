#include "d.h"
__device__ int log_count;
__device__ __noinline__ void log_event(int kind, const char* what, double v) {
  int c = atomicAdd(&log_count, 1);
  switch (kind) {
    case 0: printf("info  #%d %s = %f\n", c, what, v); break;
    case 1: printf("warn  #%d %s = %e (%x)\n", c, what, v, __double2hiint(v)); break;
    case 2: printf("error #%d %s = %g block (%d,%d,%d) thread %d\n", c, what, v, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x); break;
    default: printf("?%d %s %lld %p\n", kind, what, (long long)v, what);
  }
  assert(kind < 4);
}
__global__ void log_kernel(double* v) { log_event(threadIdx.x & 3, "log_kernel", checked_div(v[threadIdx.x], 3.0)); }
