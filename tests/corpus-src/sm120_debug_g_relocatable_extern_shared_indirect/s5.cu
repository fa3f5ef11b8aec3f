__global__ void ks5(int* o) { __shared__ int s[5]; s[threadIdx.x%5]=1; __syncthreads(); o[threadIdx.x] = s[threadIdx.x%3]; }
