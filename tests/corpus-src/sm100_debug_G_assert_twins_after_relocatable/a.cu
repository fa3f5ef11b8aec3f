#include <cassert>
__global__ void k_a(int *p) { assert(p[threadIdx.x] != 7); p[threadIdx.x] += 1; }
