__device__ int u_fn(int);
__global__ void calls_u(int *o) { o[threadIdx.x] = u_fn(threadIdx.x); }
