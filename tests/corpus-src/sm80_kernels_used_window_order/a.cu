__global__ void k1(float *o) { __shared__ float s1[64]; s1[threadIdx.x] = 1; __syncthreads(); o[threadIdx.x] = s1[63 - threadIdx.x]; }
__global__ void k2(float *o) { __shared__ float s2[128]; s2[threadIdx.x] = 2; __syncthreads(); o[threadIdx.x] = s2[127 - threadIdx.x]; }
__global__ void k3(float *o) { __shared__ float s3[32]; s3[threadIdx.x] = 3; __syncthreads(); o[threadIdx.x] = s3[31 - threadIdx.x]; }
__global__ void k4(float *o) { o[threadIdx.x] = 4; }
