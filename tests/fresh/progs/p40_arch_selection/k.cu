__device__ int twist(int x) { return (x << 3) ^ (x >> 2); }
__global__ void sel(int *o) { o[threadIdx.x] = twist(o[threadIdx.x]); }
