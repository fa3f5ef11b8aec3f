__device__ float dot(const float* a, const float* b, int n) { float s = 0; for (int i = 0; i < n; ++i) s += a[i] * b[i]; return s; }
__device__ void axpy(float a, const float* x, float* y, int n) { for (int i = 0; i < n; ++i) y[i] += a * x[i]; }
__global__ void lib_gemv(const float* A, const float* x, float* y, int n) { int r = threadIdx.x; if (r < n) y[r] = dot(A + r * n, x, n); }
