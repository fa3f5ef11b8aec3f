#include <cassert>
__global__ void k_b(int *p) { assert(p[threadIdx.x] != 7); p[threadIdx.x] += 1; }
