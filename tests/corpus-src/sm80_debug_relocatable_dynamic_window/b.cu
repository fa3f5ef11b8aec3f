__device__ float scales[64];
__device__ float scale_of(int i) { return scales[i & 63]; }
__global__ void dynk(float *o) { extern __shared__ float dyn[]; dyn[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = dyn[threadIdx.x ^ 1]; }
