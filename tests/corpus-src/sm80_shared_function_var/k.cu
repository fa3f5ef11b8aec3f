__device__ __noinline__ void f(int *p) { __shared__ int tile[64]; tile[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = tile[63 - threadIdx.x]; }
__global__ void k(int *p) { f(p); }
