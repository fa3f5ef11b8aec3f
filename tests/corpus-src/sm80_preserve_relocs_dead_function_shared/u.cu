extern __shared__ float eu[];
__device__ __noinline__ float gdead(int n) { __shared__ float arr[16]; arr[threadIdx.x&15] = n; __syncthreads(); return arr[(threadIdx.x+1)&15]; }
__global__ void kdu(float* o) { eu[threadIdx.x] = 1; __syncthreads(); o[threadIdx.x] = eu[threadIdx.x^1]; }
__global__ void kzu(float* o) { o[threadIdx.x] = 2; }
