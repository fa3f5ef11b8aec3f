// fp8/fp6/fp4 quantisation with per-tensor scales kept in __constant__ memory that another TU
// fills and reads (extern), plus half2/bfloat162 math.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>

__constant__ float scales[16];
__constant__ __half2_raw bias2 = {0x3800, 0xb400};  // (0.5, -0.25)
extern __device__ unsigned long long saturations;

__device__ __nv_fp8_e4m3 to_e4m3(float x, int t) {
  float y = x * scales[t & 15];
  if (fabsf(y) > 448.f) atomicAdd(&saturations, 1ull);
  return __nv_fp8_e4m3(y);
}

__global__ void quantize_e4m3(const float* in, __nv_fp8_e4m3* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = to_e4m3(in[i], blockIdx.x);
}

__global__ void quantize_e5m2x4(const float4* in, __nv_fp8x4_e5m2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __nv_fp8x4_e5m2(in[i]);
}

__global__ void quantize_fp6_fp4(const float2* in, __nv_fp6x2_e2m3* o6, __nv_fp4x2_e2m1* o4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { o6[i] = __nv_fp6x2_e2m3(in[i]); o4[i] = __nv_fp4x2_e2m1(in[i]); }
}

__global__ void half_axpy(const __half2* x, __half2* y, __half2 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(a, x[i], __hadd2(y[i], __half2(bias2)));
}
