#include "bytes.h"
#include <cstdio>
__global__ void bytes_kernel(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned r = sad_bytes(x, y) + dot_bytes((int)x, (int)y, i) + shuffle_bytes(x, y, i & 0x7777);
  out[i] = r + (unsigned)rot_rev(((unsigned long long)x << 32) | y, i);
}
__global__ void ptx_kernel(const unsigned *a, unsigned *out, float *f, unsigned long long *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? a[i] : 0;
  unsigned w = warp_stats(v);
  if (i < n) {
    out[i] = ptx_mix(v, w, i) ^ w;
    f[i] = ptx_float(__uint_as_float(v), f[i]);
  }
  if (i == 0) *t = stamp();
}
int main() {
  unsigned *a, *b, *o; float *f; unsigned long long *t;
  cudaMalloc(&a, 4096); cudaMalloc(&b, 4096); cudaMalloc(&o, 4096); cudaMalloc(&f, 4096); cudaMalloc(&t, 8);
  bytes_kernel<<<4, 256>>>(a, b, o, 1024);
  ptx_kernel<<<4, 256>>>(a, o, f, t, 1024);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
