extern __device__ int cfun(int);
__global__ void ka(int *p) { p[threadIdx.x] = cfun(p[threadIdx.x]) + 1; }
