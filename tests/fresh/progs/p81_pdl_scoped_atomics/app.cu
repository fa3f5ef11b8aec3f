#include "pdl.h"
#include <cstdio>
__global__ void primary(const float *in, float *mid, unsigned *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) mid[i] = in[i] * 2.f + 1.f;
  __syncthreads();
  if (threadIdx.x == 0) publish(flag, 1);
  release_dependents();
}
__global__ void secondary(const float *mid, float4 *out, unsigned *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  wait_for_primary();
  if (i < n) {
    float v = stage_value(mid, i, n);
    add_vec(out + (i & 15), make_float4(v, v * v, 1.f, -v));
    if ((i & 31) == 0) bump_total(observe(flag));
  }
}
__global__ void tail(float *mid, int n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) mid[i] = g_slots[i & 255].v[i & 3] + (float)g_total;
  asm volatile("griddepcontrol.launch_dependents;");
}
int main() {
  int n = 1 << 16;
  float *in, *mid; float4 *out; unsigned *flag;
  cudaMalloc(&in, n * 4); cudaMalloc(&mid, n * 4); cudaMalloc(&out, 16 * 16); cudaMalloc(&flag, 4);
  primary<<<n / 256, 256>>>(in, mid, flag, n);
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim = n / 256; cfg.blockDim = 256; cfg.attrs = at; cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, secondary, (const float *)mid, out, flag, n);
  cudaLaunchKernelEx(&cfg, tail, mid, n);
  printf("%d\n", (int)cudaDeviceSynchronize());
}
