__device__ int scale(int x);
__global__ void apply(int *o) { o[threadIdx.x] = scale(o[threadIdx.x]); }
