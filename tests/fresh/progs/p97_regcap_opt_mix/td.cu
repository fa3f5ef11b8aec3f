#include "h.h"
__device__ __noinline__ float td_entry(float* p, int n) { return heavy(p, n) + light(p[2], p[3]); }
__global__ void __launch_bounds__(512, 1) kd(float* p, int* q, int n) { p[threadIdx.x] = td_entry(p, n); q[0] = heavy(q, n) + light(q[1], q[2]); }
