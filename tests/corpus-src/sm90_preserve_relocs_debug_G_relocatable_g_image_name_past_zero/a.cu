__global__ void ks(float *out) { __shared__ float st[9]; extern __shared__ float4 dyn[]; st[threadIdx.x % 9] = out[0]; dyn[threadIdx.x].x = out[1]; __syncthreads(); out[threadIdx.x] = dyn[0].x + st[3]; }
__global__ void kd(float *out) { extern __shared__ float4 dyn[]; dyn[threadIdx.x].x = out[1]; __syncthreads(); out[threadIdx.x] = dyn[0].x; }
__global__ void kn(float *o) { o[threadIdx.x] *= 2.f; }
