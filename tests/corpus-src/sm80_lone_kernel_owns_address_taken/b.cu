__device__ int g(int *o) { __shared__ int s[32]; s[threadIdx.x] = blockIdx.z; __syncthreads(); return s[31 - threadIdx.x]; }
__device__ int (*gp)(int *) = g;
