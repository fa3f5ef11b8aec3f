#include "h.h"
__global__ void kb(float* p, int* q, int n) { p[threadIdx.x] = heavy(p, n) + light(1.f, p[1]); q[threadIdx.x] = heavy(q, n); }
template __global__ void tkern<128>(float*, int);
template __global__ void tkern<256>(float*, int);
