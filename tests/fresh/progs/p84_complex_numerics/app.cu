#include "cplx.h"
#include <cstdio>
__global__ void spectrum(cf *data, cd *poly, float *nm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 4) return;
  radix4(data + i, n / 4);
  data[i] = cmul_exp(data[i], c_twiddle[i & 63]);
  poly[i] = cpoly(cd(data[i].real(), data[i].imag()), i & 7);
  nm[i] = numeric_mix(data[i].imag(), poly[i].real());
  if (i == 0) g_accum += poly[0];
}
__global__ void low_precision(cuda::std::complex<__half> *h, cuda::std::complex<__nv_bfloat16> *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) { h[i] = hmul(h[i], h[i + 1]); b[i] = bmul(b[i], b[i + 1]); }
}
int main() {
  cf *d; cd *p; float *m; cuda::std::complex<__half> *h; cuda::std::complex<__nv_bfloat16> *b;
  cudaMalloc(&d, 8192 * 8); cudaMalloc(&p, 8192 * 16); cudaMalloc(&m, 8192 * 4); cudaMalloc(&h, 8192 * 4); cudaMalloc(&b, 8192 * 4);
  spectrum<<<8, 256>>>(d, p, m, 8192);
  low_precision<<<32, 256>>>(h, b, 8192);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
