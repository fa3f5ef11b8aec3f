__global__ void child(int *p) { p[1] = 3; }
__global__ void kmain(int *p) { child<<<1,1>>>(p); }
__global__ void kunused(int *p) { __shared__ int s[64]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[0] = s[63 - threadIdx.x]; }
__device__ int helper(int x) { return x * 3; }
__global__ void kunused2(int *p) { p[0] = helper(p[1]); }
void launch(int *p) { kmain<<<1, 1>>>(p); }
