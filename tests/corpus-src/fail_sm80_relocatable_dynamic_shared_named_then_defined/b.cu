extern __shared__ float dyn[];
__global__ void kb(float *p){ dyn[threadIdx.x]=p[2]; __syncthreads(); p[3]=dyn[threadIdx.x+1]; }
