#include "common.cuh"
__device__ int only_c = 3;
__global__ void kc(int *o) { o[1] = tally<int> + g_counter + only_c; }
