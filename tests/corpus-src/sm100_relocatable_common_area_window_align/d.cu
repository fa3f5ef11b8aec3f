__global__ void kF(int *o) { __shared__ __align__(64) int f[3]; f[threadIdx.x % 3] = 1; __syncthreads(); o[threadIdx.x] = f[(threadIdx.x + 1) % 3]; }
