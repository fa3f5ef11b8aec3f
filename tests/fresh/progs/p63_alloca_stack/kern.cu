__device__ int sum_dyn(const int *src, int n);
__device__ int fixed_local(int seed);
__device__ int rec_dyn(int d, const int *src);
__global__ void k_dyn(const int *src, int *o, int n) { o[threadIdx.x] = sum_dyn(src, n); }
__global__ void k_fixed(int *o) { o[threadIdx.x] = fixed_local(threadIdx.x); }
__global__ void k_rec(const int *src, int *o, int d) { o[threadIdx.x] = rec_dyn(d, src); }
__global__ void k_both(const int *src, int *o, int n) { o[threadIdx.x] = sum_dyn(src, n) + fixed_local(n); }
