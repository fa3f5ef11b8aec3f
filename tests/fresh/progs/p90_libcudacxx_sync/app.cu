#include "sy.h"
#include <cstdio>
__global__ void stream_sum(const float *g, float *o, int chunks) {
  float a = pipelined_sum(g, chunks, blockDim.x) + roles_sum(g, chunks);
  throttled(a);
  o[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
__global__ void waiter(float *g, int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int e = wait_epoch(0);
  o[i] = e + block_latch_count() + (int)hinted_read(g, i, n);
}
int main() {
  float *g, *o; int *w;
  cudaMalloc(&g, 1 << 20); cudaMalloc(&o, 1 << 20); cudaMalloc(&w, 1 << 20);
  stream_sum<<<4, 128, 2 * 128 * 4>>>(g, o, 8);
  waiter<<<4, 128>>>(g, w, 4096);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
