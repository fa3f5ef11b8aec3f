#include "tm.h"
__global__ void gather(float* out, int n) {
  Acc<float> a{0.f};
  int i = threadIdx.x;
  for (int k = ranges[i & 15].x; k < ranges[i & 15].y; ++k) a.add(cells[k & 63].w[k % 3]);
  out[i] = a.scaled(i) + dot3(cells[i & 63].w, &coef[i & 127]) + bias<float>[i & 7];
  if (i == 0) atomicAdd(&ticks[1], (unsigned long long)n);
}
