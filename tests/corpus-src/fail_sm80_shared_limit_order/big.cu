__global__ void kbig(int *o){ __shared__ int s[12290]; s[threadIdx.x]=o[0]; __syncthreads(); o[1]=s[threadIdx.x+1]; }
