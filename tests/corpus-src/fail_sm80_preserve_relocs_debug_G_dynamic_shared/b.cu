extern __shared__ float dyn_f[];
__device__ void stage_to_shared(const float* g, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) dyn_f[i] = g[i];
}
__device__ float shared_sum(int n) {
  __shared__ float partial[32];
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += dyn_f[i];
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = s;
  __syncthreads();
  float t = 0.f;
  for (int i = 0; i < (blockDim.x + 31) / 32; ++i) t += partial[i];
  return t;
}
