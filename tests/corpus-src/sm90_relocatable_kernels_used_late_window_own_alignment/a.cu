extern __shared__ float dyn_f[];
extern __shared__ __align__(64) float dyn_64[];
__device__ float helper(int n) { __shared__ __align__(32) float arr[12]; arr[n&7] = n; __syncthreads(); return arr[3]; }
__global__ void k1(float* o) { o[threadIdx.x] = dyn_f[threadIdx.x]; }
__global__ void k2(float* o, int n) { o[threadIdx.x] = helper(n); }
__global__ void k3(float* o, int n) { o[threadIdx.x] = dyn_64[n] + helper(n+1); }
