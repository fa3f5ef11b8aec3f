struct __align__(32) V { float x[8]; };
__global__ void kd32(float *out) { extern __shared__ V dyn32[]; dyn32[threadIdx.x].x[0] = out[1]; __syncthreads(); out[threadIdx.x] = dyn32[0].x[0]; }
