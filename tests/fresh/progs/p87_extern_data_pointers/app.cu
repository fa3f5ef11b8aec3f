#include "shared.h"
#include <cstdio>
__global__ void run_ops(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Entry &e = op_table[i & 3];
  float v = e.fn(samples[i & 4095]) + c_views.mid[i & 63] + (float)c_views.lut_tail[i & 7];
  atomicAdd(e.counter, 1);
  atomicAdd(&m_hist[i & 63], 1);
  if (v > 1e30f) printf("%s %s\n", e.name, messages[1]);
  out[i] = v + big_coef[i % 6144] + big_idx[i & 8191] + (float)m_state;
  if (i == 0) { cursor = samples + (lut[2] & 4095); m_state += 1.0; }
}
int main() {
  float *o; cudaMalloc(&o, 1 << 16);
  run_ops<<<64, 256>>>(o, 16384);
  printf("%d %d\n", (int)cudaDeviceSynchronize(), m_hist[0]);
}
