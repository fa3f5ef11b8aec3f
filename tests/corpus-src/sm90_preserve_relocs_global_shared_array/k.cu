__shared__ int tile[64];
__device__ int dsum(int *p) { tile[threadIdx.x & 63] = p[0]; __syncthreads(); return tile[1]; }
__global__ void k1(int *p) { p[threadIdx.x] = dsum(p); }
__global__ void k2(int *p) { __shared__ float b[8]; b[threadIdx.x & 7] = 1; p[threadIdx.x] = dsum(p) + b[3]; }
