__shared__ int tile[64];
__global__ void kb(int *p) { tile[threadIdx.x & 63] = p[3]; __syncthreads(); p[4] = tile[5]; }
