__device__ int from_b(int);
__global__ void ka(int *o) { __shared__ int s[8]; s[threadIdx.x & 7] = o[0]; __syncthreads(); o[1] = from_b(s[1]); }
