#include "lib.h"
__global__ void run(float* f, const int* b, int n, int* out) {
  int i = threadIdx.x;
  f[i] = fy(f[i]) + fx(f[i] * 0.5f);
  if (i == 0) out[0] = a1_count(b, n) + x_hits + y_hits;
}
