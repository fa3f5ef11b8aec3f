__device__ char g_a[2];
__global__ void ka(double* o) { __shared__ double s[3]; s[threadIdx.x] = o[0]; __syncthreads(); o[1] = g_a[0] + s[2]; }
