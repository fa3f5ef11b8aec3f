#include "tmpl.h"
__device__ float tu5(float);
__device__ float tu2(float x) { return poly(x, 2); }
__global__ void k(float *o) { o[0] = tu2(o[1]) + tu5(o[2]); }
__device__ float dead2(float x) { return poly(x, 5) + (float)poly(2.0, 3); }
