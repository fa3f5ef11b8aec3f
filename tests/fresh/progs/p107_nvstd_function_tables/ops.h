#pragma once
#include <nvfunctional>

using UnaryOp = float (*)(float);
using Callback = nvstd::function<float(float, int)>;

// functions defined in ops.cu
__device__ float op_square(float);
__device__ float op_rsqrt(float);
__device__ float op_softplus(float);
__device__ float op_gelu(float);
// a table of function pointers initialised statically in table.cu from ops.cu's functions
extern __device__ UnaryOp g_unary[4];
extern __device__ const char* g_unary_names[4];
// a run-time table filled by a kernel with lambdas converted to function pointers
extern __device__ UnaryOp g_dyn[4];

__device__ float apply_chain(const Callback* cbs, int n, float x);
__device__ Callback make_scaled(UnaryOp op, float scale);

template <typename F>
__global__ void map_kernel(float* d, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = f(d[i], i);
}
void run_maps(float* d, int n);
