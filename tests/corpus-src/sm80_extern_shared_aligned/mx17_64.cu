extern __shared__ __align__(64) float e64[];
__global__ void kmx17_64(float* o) { __shared__ int s[17]; s[threadIdx.x%17]=1; e64[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = e64[threadIdx.x ^ 1] + s[threadIdx.x%3]; }
