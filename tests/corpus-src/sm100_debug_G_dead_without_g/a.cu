__device__ int helper_used(int x);
__global__ void k(int *p) { p[threadIdx.x] = helper_used(p[threadIdx.x]); }
