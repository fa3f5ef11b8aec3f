__device__ int gv[4] = {1, 2, 3, 4};
__device__ int other_v = 3;
__device__ int helper(int x) { __shared__ int hs[32]; hs[x & 31] = x; __syncthreads(); return hs[(x + 1) & 31] + gv[x & 3]; }
__global__ void k1(int *o) { __shared__ int s1[64]; s1[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s1[63 - threadIdx.x] + helper(threadIdx.x); }
__global__ void k2(int *o) { __shared__ double s2[16]; s2[threadIdx.x & 15] = o[0]; __syncthreads(); o[threadIdx.x] = (int)s2[threadIdx.x & 15] + other_v; }
__global__ void k3(int *o) { extern __shared__ int dyn[]; dyn[threadIdx.x] = 1; __syncthreads(); o[0] = dyn[5] + helper(2); }
__global__ void k4(int *o) { o[0] = 4; }
typedef void (*kp_t)(int *);
__device__ kp_t table[2] = {k2, k4};
