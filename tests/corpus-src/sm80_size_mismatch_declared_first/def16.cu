__device__ int v[16];
__global__ void k2(int *o) { o[0] = v[threadIdx.x + 1]; }
