extern __shared__ float dyn[];
__global__ void kd(float *p) { dyn[threadIdx.x] = p[0]; __syncthreads(); p[1] = dyn[5]; }
