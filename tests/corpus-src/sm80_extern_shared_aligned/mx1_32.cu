extern __shared__ __align__(32) float e32[];
__global__ void kmx1_32(float* o) { __shared__ int s[1]; s[threadIdx.x%1]=1; e32[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = e32[threadIdx.x ^ 1] + s[threadIdx.x%3]; }
