#include "vec.cuh"
__global__ void clamp_pos(V3* p, int n) { int i = threadIdx.x; if (i < n) { p[i].x = fminf(p[i].x, 10.f); p[i] = p[i] + 0.5f * force(p[i], p[0]); } }
