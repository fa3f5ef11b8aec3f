__device__ int f(int x);
__global__ void k(int *p) { p[threadIdx.x] = f(p[threadIdx.x]); }
