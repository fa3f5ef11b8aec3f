// half2 axpy with a __constant__ bias: the second global load's first consumer is the same
// HFMA2 as an earlier LDC's, and nvlink, re-allocating the scoreboards of this kernel in the
// final link, puts that load on the LDC's scoreboard 0 (a tie outside 2-4).
#include <cuda_fp16.h>

__constant__ __half2_raw bias2 = {0x3800, 0xb400};

__global__ void half_axpy(const __half2* x, __half2* y, __half2 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(a, x[i], __hadd2(y[i], __half2(bias2)));
}
