#include "common.cuh"
__global__ void kc(float *o, int n) { extern __shared__ float sf[]; sf[threadIdx.x] = n; __syncthreads(); o[0] = sf[n]; }
