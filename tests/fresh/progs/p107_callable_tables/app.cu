#include "ops.h"
#include <cstdio>

__global__ void chain_kernel(float* d, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Callback cbs[4];
  cbs[0] = make_scaled(g_unary[i & 3], alpha);
  cbs[1] = [alpha](float x, int k) { return x + alpha * k; };
  cbs[2] = Callback(make_scaled(op_gelu, 0.5f));
  // cbs[3] left empty: apply_chain skips it
  d[i] = apply_chain(cbs, 4, d[i]);
  if (i == 0) printf("chain: %s then lambda then gelu\n", g_unary_names[0]);
}

void run_maps(float* d, int n) {
  float bias = 0.25f;
  // extended lambdas: a __device__ one capturing a host value and a __host__ __device__ one
  map_kernel<<<(n + 127) / 128, 128>>>(d, n, [bias] __device__(float x, int i) { return op_softplus(x) + bias * i; });
  auto hd = [] __host__ __device__(float x, int) { return x > 0.f ? x : 0.01f * x; };
  map_kernel<<<(n + 127) / 128, 128>>>(d, n, hd);
  chain_kernel<<<(n + 127) / 128, 128>>>(d, n, 2.f);
}

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  run_maps(d, 1024);
  cudaDeviceSynchronize();
  return 0;
}
