#include "lib.h"
__global__ void areas(const int *kinds, const float *dims, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = make_shape(kinds[i], dims[2 * i], dims[2 * i + 1]);
  if (s) { out[i] = s->area(); delete s; }
}
__global__ void other(float *out) { out[threadIdx.x] = 1.f; }
