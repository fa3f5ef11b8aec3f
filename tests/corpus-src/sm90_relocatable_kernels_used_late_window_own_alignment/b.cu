extern __shared__ float dyn_f[];
__device__ float helper(int n);
__global__ void k4(float* o, int n) { o[threadIdx.x] = dyn_f[n] + helper(n); }
__global__ void k5(float* o, int n) { o[threadIdx.x] = dyn_f[n]; }
