#include "tk2.cuh"
#include <cassert>
void ff(float* p) { tks<<<1, 64>>>(p, 2.f); tkc<<<1,32>>>(p); }
__global__ void kf(int* p) { assert(p); if (p[1] < 0) __trap(); p[1] = 2; }
