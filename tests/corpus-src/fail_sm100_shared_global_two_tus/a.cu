__shared__ int tile[64];
__global__ void ka(int *p) { tile[threadIdx.x & 63] = p[0]; __syncthreads(); p[1] = tile[2]; }
