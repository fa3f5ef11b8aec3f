#include "lib.h"
#include <cstdio>
__global__ void areas(const int *kinds, const float *dims, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = make_shape(kinds[i], dims[2 * i], dims[2 * i + 1]);
  if (s) { out[i] = s->area(); record(out[i]); delete s; }
}
__global__ void sums(const float *v, float *out, int n) {
  if (threadIdx.x == 0) out[blockIdx.x] = tree_sum(v, blockIdx.x * n, (blockIdx.x + 1) * n, 0) + mean();
}
int main() {
  int *k; float *d, *o;
  cudaMalloc(&k, 4096); cudaMalloc(&d, 8192); cudaMalloc(&o, 4096);
  areas<<<4, 256>>>(k, d, o, 1024);
  sums<<<4, 32>>>(d, o, 256);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
