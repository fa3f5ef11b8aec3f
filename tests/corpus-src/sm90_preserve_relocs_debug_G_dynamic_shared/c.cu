extern __shared__ double2 dyn_d2[];
__device__ float shared_sum(int n);
__global__ void k_dyn_double(double* out, int n) {
  dyn_d2[threadIdx.x] = make_double2(threadIdx.x, n);
  __syncthreads();
  out[threadIdx.x] = dyn_d2[(threadIdx.x + 1) % blockDim.x].x + shared_sum(n);
}
__global__ void k_no_shared(int* o) { o[threadIdx.x] = threadIdx.x; }
