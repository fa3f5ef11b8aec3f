__device__ float gx(int i);
__global__ void ky4(float* o) { __shared__ int s[1]; s[0]=threadIdx.x; __syncthreads(); o[threadIdx.x] = gx(threadIdx.x)+s[0]; }
__global__ void ky0(float* o) { o[threadIdx.x] = gx(threadIdx.x); }
__global__ void ky24(float* o) { __shared__ int s[9]; s[threadIdx.x%9]=threadIdx.x; __syncthreads(); o[threadIdx.x] = gx(threadIdx.x)+s[threadIdx.x%5]; }
