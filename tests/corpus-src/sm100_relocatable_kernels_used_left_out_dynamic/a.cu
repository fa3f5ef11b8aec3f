extern __shared__ float dyn_f[];
extern __shared__ double2 dyn_d2[];
__device__ float helper(int n) { return dyn_f[n]; }
__global__ void k1(float* o) { o[threadIdx.x] = dyn_f[threadIdx.x]; }
__global__ void k2(double* o) { o[threadIdx.x] = dyn_d2[threadIdx.x].y; }
__global__ void k3(float* o, int n) { __shared__ float s[8]; s[threadIdx.x&7]=n; __syncthreads(); o[threadIdx.x] = s[n&7] + helper(n); }
__global__ void k4(float* o, int n) { o[threadIdx.x] = helper(n); }
__global__ void k5(float* o, int n) { __shared__ __align__(32) float t[9]; t[n&7]=1; __syncthreads(); o[0] = t[3] + dyn_f[2]; }
