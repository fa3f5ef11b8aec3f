#include "common.cuh"
__global__ void kc(float *o, int n) {
  o[0] = dyn_reduce_f(n) + (float)dyn_reduce_d(n) + g_unary[threadIdx.x % 3](o[1]) + pick<7>()(o[2]);
  Registry<int>::bump(n);
  o[3] = (float)reg_counter<int> + reg_table<double>[0];
}
