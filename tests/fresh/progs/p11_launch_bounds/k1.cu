__device__ float shared_helper(float x, int k);
__global__ void __launch_bounds__(1024, 1) wide(float* v) { v[threadIdx.x] = shared_helper(v[threadIdx.x], 3); }
__global__ void __launch_bounds__(128, 8) narrow(float* v) { v[threadIdx.x] = shared_helper(v[threadIdx.x], 9); }
__global__ void __launch_bounds__(256) plain(float* v) { v[threadIdx.x] = shared_helper(v[threadIdx.x], 1) * 2; }
