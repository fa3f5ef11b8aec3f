extern __shared__ __align__(16) float e16[];
__global__ void km9_16(float* o) { __shared__ int s[9]; s[threadIdx.x%9]=1; e16[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = e16[threadIdx.x ^ 1] + s[threadIdx.x%3]; }
