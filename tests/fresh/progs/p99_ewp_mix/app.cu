#include "e.h"
// (an -ewp object's device functions are internal to it: only its kernels and what it calls
// out to cross objects, so the application calls the -dc object's function only)
__global__ void app_kernel(const float* p, float* o, int n) { o[threadIdx.x] = rdc_poly(p[threadIdx.x]) * n; }
