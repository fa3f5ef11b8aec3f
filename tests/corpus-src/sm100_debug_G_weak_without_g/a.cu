#include "h.cuh"
__device__ int from_b(int);
__global__ void ka(int *p) { p[0] = twice(p[1]) + from_b(p[2]); }
