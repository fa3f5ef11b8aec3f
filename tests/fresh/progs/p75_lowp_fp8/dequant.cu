// The other side: dequantise with the scales defined in quant.cu, bfloat16 reductions with
// warp shuffles, and the saturation counter (a __device__ variable this TU defines).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern __constant__ float scales[16];
extern __constant__ __half2_raw bias2;
__device__ unsigned long long saturations;
__device__ __nv_fp8_e4m3 to_e4m3(float x, int t);

__device__ float from_e4m3(__nv_fp8_e4m3 q, int t) { return float(q) / scales[t & 15]; }

__global__ void dequantize(const __nv_fp8_e4m3* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = from_e4m3(in[i], blockIdx.x);
}

__global__ void requantize(const float* in, __nv_fp8_e4m3* out, __nv_fp8_e5m2* out2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[i] = to_e4m3(in[i], blockIdx.x + 1); out2[i] = __nv_fp8_e5m2(__half(in[i])); }
}

__global__ void bf16_dot(const __nv_bfloat162* a, const __nv_bfloat162* b, float* out, int n) {
  __nv_bfloat162 acc = __float2bfloat162_rn(0.f);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = __hfma2(a[i], b[i], acc);
  float s = __low2float(acc) + __high2float(acc) + __low2float(__half2(bias2));
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

__global__ void half_minmax(const __half* x, __half* lo, __half* hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { __half v = hsqrt(__habs(x[i])); atomicAdd(hi, v); *lo = __hmin(*lo, v); }
}
