#pragma once
__device__ float big_helper(const float *g, int i);
__device__ float mid_helper(const float *g, int i);
__device__ float swizzled(const float *g, int i);
__device__ float odd_sizes(int i);
template <class T> __device__ __noinline__ T tmpl_stage(const T *g, int i) {
  __shared__ T st[300];
  st[threadIdx.x % 300] = g[i];
  __syncthreads();
  return st[(threadIdx.x + 7) % 300];
}
