extern __shared__ float dyn[];
__global__ void ka(float *p){ dyn[threadIdx.x]=p[0]; __syncthreads(); p[1]=dyn[threadIdx.x+1]; }
