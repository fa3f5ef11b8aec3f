// Two kernels (own array of N floats) calling a function with a 16 KiB __shared__ array.
#ifndef N
#define N 6400
#endif
__device__ __noinline__ float helper(const float *g, int i) {
  __shared__ float h16[4096];
  h16[threadIdx.x] = g[i];
  __syncthreads();
  return h16[(threadIdx.x * 17) & 4095];
}
__global__ void too_big(const float *g, float *o) {
  __shared__ float own[N];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  own[threadIdx.x] = g[i];
  __syncthreads();
  o[i] = own[threadIdx.x ^ 3] + helper(g, i);
}
__global__ void too_big2(const float *g, float *o) {
  __shared__ float own2[N];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  own2[threadIdx.x] = g[i];
  __syncthreads();
  o[i] = own2[threadIdx.x ^ 3] + helper(g, i);
}
