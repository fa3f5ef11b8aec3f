__device__ int f(int *o) { __shared__ int s[32]; s[threadIdx.x] = blockIdx.z; __syncthreads(); return s[31 - threadIdx.x]; }
