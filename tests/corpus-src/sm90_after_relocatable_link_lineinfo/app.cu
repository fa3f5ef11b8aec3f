__device__ float mid_stage(float x);
__device__ int permute(int i);
__global__ void app_kernel(float* v) { v[threadIdx.x] = mid_stage(v[permute(threadIdx.x)]); }
