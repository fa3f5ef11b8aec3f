#include "common.cuh"
__global__ void ky(int* o, const float* f) { Acc a{1}; a += o[2]; o[3] = a.get() + unroll_sum<4>(o) + unroll_sum<8>(o) + bump() + (int)smooth(f[1]); }
