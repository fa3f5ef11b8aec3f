#include "e.h"
__global__ void app_kernel(const float* p, float* o, int n) {
  o[threadIdx.x] = ew1_norm(p, n) + ew2_hash(threadIdx.x) + rdc_poly(p[threadIdx.x]);
}
