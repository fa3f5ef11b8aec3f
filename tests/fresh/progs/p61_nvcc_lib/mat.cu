__device__ float vdot(const float *a, const float *b, int n);
__device__ float util_clamp(float v);
__device__ float g_trace;
__device__ void matvec(const float *m, const float *x, float *y, int n) {
  for (int r = 0; r < n; r++) y[r] = util_clamp(vdot(m + r * n, x, n));
  atomicAdd(&g_trace, m[0]);
}
__global__ void lib_unused_kernel(float *m) { m[threadIdx.x] = 0.f; }
