#include "poly.h"
__global__ void ka(double *o) { o[threadIdx.x] = poly(o[threadIdx.x], threadIdx.x); }
