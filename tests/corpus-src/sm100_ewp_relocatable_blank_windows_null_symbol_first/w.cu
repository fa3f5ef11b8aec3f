__global__ void kb(double *o) { __shared__ double d[64]; d[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = d[63 - threadIdx.x]; }
__global__ void ka(float *o) { __shared__ float s[32]; s[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s[31 - threadIdx.x]; }
