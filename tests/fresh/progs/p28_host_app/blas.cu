#include "kernels.cuh"
__global__ void saxpy(float a, const float* x, float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = clampf(a * x[i] + y[i]); }
__global__ void unused_dot(const float* x, const float* y, float* r, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x[i] * y[i]; *r = clampf(s); }
static __global__ void static_used(float* p) { p[0] = clampf(p[0]); }
void blas_run(float* p) { static_used<<<1, 1>>>(p); }
