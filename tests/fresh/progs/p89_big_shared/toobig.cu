#include "sh.h"
__global__ void too_big(const float *g, float *o) {
  __shared__ float own[6400];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  own[threadIdx.x] = g[i];
  __syncthreads();
  o[i] = own[threadIdx.x ^ 3] + big_helper(g, i) + mid_helper(g, i);
}
