__global__ void ks1(int* o) { __shared__ int s[1]; s[threadIdx.x%1]=1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x%3]; }
