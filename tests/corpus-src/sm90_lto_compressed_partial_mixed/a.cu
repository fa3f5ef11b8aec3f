extern __device__ int cfun(int);
extern __device__ int lfun(int);
__device__ int lfun(int x) { return x * x - 5; }
__global__ void ka(int *p) { p[threadIdx.x] = cfun(p[threadIdx.x]) + lfun(threadIdx.x); }
