#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__device__ void tile_f16(const half *a, const half *b, float *c);
__device__ void tile_i8(const signed char *a, const signed char *b, int *c);
__device__ void tile_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c);
__device__ void tile_tf32(const float *a, const float *b, float *c);
__global__ void gemm_f16(const half *a, const half *b, float *c) { tile_f16(a + blockIdx.x * 256, b, c + blockIdx.x * 256); }
__global__ void gemm_i8(const signed char *a, const signed char *b, int *c) { tile_i8(a, b, c); }
__global__ void gemm_mixed(const void *a, const void *b, float *c) {
#if __CUDA_ARCH__ >= 800
  tile_bf16((const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, c);
  tile_tf32((const float *)a, (const float *)b, c + 256);
#endif
}
__global__ void ldm_mma(const half *a, float *out) {
  __shared__ __align__(16) half s[16 * 16];
  for (int i = threadIdx.x; i < 256; i += 32) s[i] = a[i];
  __syncwarp();
  unsigned r0, r1, r2, r3;
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 16) * 16 + (threadIdx.x / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
#endif
  out[threadIdx.x * 4 + 0] = d0; out[threadIdx.x * 4 + 1] = d1; out[threadIdx.x * 4 + 2] = d2; out[threadIdx.x * 4 + 3] = d3;
}
__global__ void fp8_ops(const float *in, __nv_fp8_e4m3 *q, float *out) {
  int i = threadIdx.x;
  __nv_fp8_e4m3 x(in[i]);
  __nv_fp8_e5m2 y(in[i] * 2.f);
  q[i] = x;
  float acc = float(x) + float(y);
#if __CUDA_ARCH__ >= 890
  unsigned a = 0x38383838u * (i + 1), b = 0x3c3c3c3cu;
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a), "r"(b), "r"(a), "r"(b), "r"(a), "r"(b));
  acc += d0 + d1 + d2 + d3;
#endif
  out[i] = acc;
}
