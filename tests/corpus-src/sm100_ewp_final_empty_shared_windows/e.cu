extern __shared__ int sm[];
__global__ void k_dyn(int* o) { sm[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = sm[threadIdx.x ^ 1]; }
__global__ void k_none(int* o) { o[threadIdx.x] = threadIdx.x; }
