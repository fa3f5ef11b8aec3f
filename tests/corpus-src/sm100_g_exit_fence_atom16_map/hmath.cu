#include <cuda_fp16.h>
#include <cuda_bf16.h>
__device__ __half2 hfma_chain(__half2 a, __half2 b, int k) { for (int i = 0; i < k; ++i) a = __hfma2(a, b, a); return a; }
__device__ __nv_bfloat16 bf_mix(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(__hmul(a, b), hexp(a)); }
__global__ void half_kernel(__half* h, __nv_bfloat16* b, int n) {
  int i = threadIdx.x;
  if (i * 2 + 1 >= n) return;
  __half2 v = __halves2half2(h[2 * i], h[2 * i + 1]);
  v = hfma_chain(v, __float2half2_rn(0.5f), 4);
  h[2 * i] = __low2half(v); h[2 * i + 1] = hsqrt(__high2half(v));
  b[i] = bf_mix(b[i], __float2bfloat16(1.25f));
  atomicAdd(&h[0], __float2half(1.f));
  atomicAdd(&b[1], __float2bfloat16(2.f));
}
