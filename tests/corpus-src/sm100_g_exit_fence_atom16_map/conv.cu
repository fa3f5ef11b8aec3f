#include <cuda_fp16.h>
#include <cuda_bf16.h>
__device__ __half2 hfma_chain(__half2 a, __half2 b, int k);
__global__ void convert(const float* f, __half* h, __nv_bfloat16* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  h[i] = __float2half_rz(f[i]);
  b[i] = __float2bfloat16_rn(f[i] * 3.f);
  __half2 x = hfma_chain(__half2half2(h[i]), __half2half2(__float2half(2.f)), 2);
  float r = __half2float(__hmax(__low2half(x), hrcp(h[i]))) + __bfloat162float(hlog2(b[i]));
  h[i] = __float2half(r);
}
