__device__ char g_b[2];
__global__ void kb(double* o) { __shared__ double t[5]; t[threadIdx.x] = o[0]; __syncthreads(); o[1] = g_b[1] + t[4]; }
