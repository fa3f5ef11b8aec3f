extern __shared__ float ey[];
__global__ void ky_mixed(float* o) { __shared__ int s[9]; s[threadIdx.x%9]=1; ey[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = ey[threadIdx.x ^ 1] + s[threadIdx.x%3]; }
__global__ void ky_static(int* o) { __shared__ int s[5]; s[threadIdx.x%5]=1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x%3]; }
__global__ void ky_big(int* o) { __shared__ int s[40]; s[threadIdx.x%40]=1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x%3]; }
