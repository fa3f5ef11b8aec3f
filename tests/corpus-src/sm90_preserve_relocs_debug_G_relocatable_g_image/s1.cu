struct __align__(32) V { float x[8]; };
__device__ int dsum(int *p) { __shared__ int acc[32]; acc[threadIdx.x & 31] = p[threadIdx.x]; __syncthreads(); return acc[0]; }
__global__ void k1(int *p) { __shared__ float buf[128]; buf[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = buf[127 - threadIdx.x] + dsum(p); }
__global__ void kd32(float *out) { extern __shared__ V dyn32[]; dyn32[threadIdx.x].x[0] = out[1]; __syncthreads(); out[threadIdx.x] = dyn32[0].x[0]; }
