__global__ void k16(float4 *o) { __shared__ char c[5]; extern __shared__ float4 d16[]; c[threadIdx.x % 5] = 1; __syncthreads(); o[threadIdx.x] = d16[threadIdx.x]; o[0].x = c[2]; }
__global__ void k4(int *o) { __shared__ char c2[5]; extern __shared__ int d4[]; c2[threadIdx.x % 5] = 1; __syncthreads(); o[threadIdx.x] = d4[threadIdx.x] + c2[3]; }
__global__ void k8(double *o) { __shared__ int c3[3]; extern __shared__ double d8[]; c3[threadIdx.x % 3] = 1; __syncthreads(); o[threadIdx.x] = d8[threadIdx.x] + c3[1]; }
