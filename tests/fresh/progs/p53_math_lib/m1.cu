#include <cmath>
__device__ __noinline__ double wave(double x) { return sin(x) * cos(x * 0.5) + exp(-x) * log1p(x); }
__device__ __noinline__ float wavef(float x) { return sinf(x) + tanf(x * 0.25f) + erff(x); }
__global__ void k_wave(double *d, float *f, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { d[i] = wave(d[i]); f[i] = wavef(f[i]); } }
