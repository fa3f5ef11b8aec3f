__device__ float vdot(const float *a, const float *b, int n) { float s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
__device__ void vaxpy(float a, const float *x, float *y, int n) { for (int i = 0; i < n; i++) y[i] += a * x[i]; }
__constant__ float c_scale[4] = {1.f, 2.f, 4.f, 8.f};
__global__ void lib_scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= c_scale[i & 3]; }
