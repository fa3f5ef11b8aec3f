#include "h.h"
__global__ void __launch_bounds__(64, 8) kc(float* p, double* d, int n) { p[threadIdx.x] = heavy(p, n) * td_entry(p, n); d[0] = heavy(d, n); }
template __global__ void tkern<256>(float*, int);
