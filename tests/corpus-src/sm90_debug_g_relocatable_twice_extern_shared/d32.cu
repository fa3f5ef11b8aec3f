extern __shared__ __align__(32) float e32[];
__global__ void kd32(float* o) { e32[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = e32[threadIdx.x ^ 1]; }
