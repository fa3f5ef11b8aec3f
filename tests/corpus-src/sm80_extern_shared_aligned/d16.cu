extern __shared__ __align__(16) float e16[];
__global__ void kd16(float* o) { e16[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = e16[threadIdx.x ^ 1]; }
