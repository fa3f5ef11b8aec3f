__device__ int g(int);
__global__ void ka(int *p) { p[threadIdx.x] = g(p[threadIdx.x]); }
