#include "tk2.cuh"
void fc(float* p) { tks<<<1, 64>>>(p, 1.f); tkc<<<1,32>>>(p); }
__global__ void kc(int* p) { __shared__ int s[16]; s[threadIdx.x&15] = 1; p[0] = s[3]; }
