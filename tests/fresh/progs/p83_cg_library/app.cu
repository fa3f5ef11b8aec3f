#include "cgx.h"
#include <cstdio>
__global__ void normalize(float *data, float *partials, int n) {
  float total = grid_sum(data, partials, n);
  grid_normalize(data, n, total);
}
__global__ void classify(const int *keys, int *out, int *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (keys[i] & 1)) out[i] = tile_classify(keys, hist, i);
}
__global__ void staged(const float *src, float *dst, int n) {
  float s = staged_tile_sum(src, n);
  if ((threadIdx.x & 31) == 0) atomicAdd(dst + blockIdx.x, s);
}
__global__ void pairs(float *v) {
  float r = cluster_exchange(v[blockIdx.x]);
  if (threadIdx.x == 0) v[blockIdx.x] = r;
}
int main() {
  int n = 1 << 16;
  float *d, *p; int *k, *o, *h;
  cudaMalloc(&d, n * 4); cudaMalloc(&p, 4096); cudaMalloc(&k, n * 4); cudaMalloc(&o, n * 4); cudaMalloc(&h, 256);
  void *args[] = {&d, &p, &n};
  cudaLaunchCooperativeKernel((void *)normalize, 64, 256, args, 0, 0);
  classify<<<n / 256, 256>>>(k, o, h, n);
  staged<<<16, 128, 1024 * 4>>>(d, p, 1024);
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.gridDim = 8; cfg.blockDim = 64; cfg.attrs = at; cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, pairs, d);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
