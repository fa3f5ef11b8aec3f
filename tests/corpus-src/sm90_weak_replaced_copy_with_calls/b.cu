#include "poly.h"
__global__ void kb(double *o) { o[threadIdx.x] = poly(o[threadIdx.x], 3 + threadIdx.x); }
