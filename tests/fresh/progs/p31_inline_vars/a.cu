#include "common.cuh"
__global__ void ka(int *o) { o[0] = bump(1) + (int)g_scale[threadIdx.x & 3]; tally<int> += 2; }
