#include "h.h"
__global__ void kb(int* q, int n) { q[threadIdx.x] = heavy(q, n); }
