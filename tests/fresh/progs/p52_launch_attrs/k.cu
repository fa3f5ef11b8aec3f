__global__ void __launch_bounds__(256, 2) lb2(float *o) { o[threadIdx.x] *= 2.f; }
__global__ void __launch_bounds__(128, 4, 2) lbc(float *o) { o[threadIdx.x] += 1.f; }
__global__ void __maxnreg__(40) mr(float *o) { float a = o[0], b = o[1], c = o[2]; o[3] = a * b + c / (a + 1.f); }
__global__ void __cluster_dims__(2, 2, 1) cd(float *o) { o[blockIdx.x] = 1.f; }
__device__ __noinline__ float deep(float x) { return x * x; }
__global__ void __launch_bounds__(1024) big(float *o) { o[threadIdx.x] = deep(o[threadIdx.x]); }
