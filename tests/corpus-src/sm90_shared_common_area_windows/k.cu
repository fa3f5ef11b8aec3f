__device__ int fsum();
__global__ void k(int* out) {
  __shared__ int s_own[128];
  s_own[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[0] = fsum() + s_own[threadIdx.x ^ 1];
}
