#include "h.h"
__global__ void __maxnreg__(40) ke(float* p, int* q, double* d, int n) { p[0] = heavy(p, n); q[0] = heavy(q, n); d[0] = heavy(d, n) + light(d[1], d[2]); }
template __global__ void tkern<512>(float*, int);
