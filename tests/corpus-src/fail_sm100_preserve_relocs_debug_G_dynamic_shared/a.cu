extern __shared__ float dyn_f[];
__device__ void stage_to_shared(const float* g, int n);
__device__ float shared_sum(int n);
__global__ void k_static_and_dyn(const float* in, float* out, int n) {
  __shared__ int s_flags[128];
  s_flags[threadIdx.x & 127] = threadIdx.x;
  stage_to_shared(in, n);
  __syncthreads();
  out[blockIdx.x] = shared_sum(n) + s_flags[(threadIdx.x + 1) & 127];
}
__global__ void k_big_static(float* out) {
  __shared__ double tile[32][33];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x * 1.0;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
