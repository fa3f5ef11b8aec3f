__device__ int from_b(int x) { return x * 9; }
__global__ void kb(int *o) { __shared__ int t[4]; t[threadIdx.x & 3] = o[2]; __syncthreads(); o[3] = t[2]; }
