extern __constant__ int ctab[64];
extern __constant__ long long cbig[8];
__device__ __noinline__ int after_fence(int *p, int i) {
  p[i] = 1;
  __threadfence();
  int v = ctab[i & 63] + (int)cbig[3];
  __threadfence_system();
  return v + ctab[5] * p[i + 1];
}
__global__ void k(int *p, int n) {
  __threadfence();
  p[threadIdx.x] = ctab[threadIdx.x & 63] + after_fence(p, n) + (int)cbig[n & 7];
}
