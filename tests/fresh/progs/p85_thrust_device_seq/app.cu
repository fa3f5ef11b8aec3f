#include "algos.h"
#include <cstdio>
__global__ void rows(int *keys, float *vals, float *out, int *counts, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int *k = keys + r * w; float *v = vals + r * w; float *o = out + r * w;
  int u = sort_row(k, v, w);
  thrust::pair<int, int> b = bounds(k, u, 3, 9);
  float s = scan_row(v, w);
  int c = compact_row(v, o, w, s / w);
  thrust::tuple<float, float> mm = minmax_row(v, w);
  counts[r] = u + b.first + b.second + c + (int)(thrust::get<0>(mm) + thrust::get<1>(mm));
}
int main() {
  int *k, *c; float *v, *o;
  cudaMalloc(&k, 1 << 20); cudaMalloc(&v, 1 << 20); cudaMalloc(&o, 1 << 20); cudaMalloc(&c, 4096);
  rows<<<4, 64>>>(k, v, o, c, 64);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
