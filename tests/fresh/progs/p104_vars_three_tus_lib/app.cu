#include "vars.h"
struct Job { const float *x; int n; float lo, hi; };
__global__ void histo(const __grid_constant__ Job j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < j.n) record((int)((j.x[i] - j.lo) / (j.hi - j.lo) * 64.f));
}
__global__ void rescale(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = apply(y[i]) + m_hist[k_perm[i & 31] & 63] + (float)m_count;
}
