extern __shared__ double2 dyn_d2[];
__device__ int fsum();
__global__ void k_dyn(double* out) { dyn_d2[threadIdx.x] = make_double2(threadIdx.x, 1); __syncthreads(); out[threadIdx.x] = dyn_d2[threadIdx.x ^ 1].x + fsum(); }
__global__ void k_none(int* o) { o[threadIdx.x] = threadIdx.x; }
