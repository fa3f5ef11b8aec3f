#include "f.h"
__global__ void app_kernel(float* f, double* d, int* i) {
  f[threadIdx.x] = geo_area(f[threadIdx.x], 3.f);
  d[threadIdx.x] = ptx_only(d[threadIdx.x]);
  i[threadIdx.x] = other_pick(i[threadIdx.x]);
}
