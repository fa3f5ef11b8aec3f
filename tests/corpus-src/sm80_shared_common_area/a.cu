// Kernels: k0 and k3 share f5, k1 and k2 share f0; f1 is dead (see b.cu).
__device__ int f0(int);
__device__ int f3(int);
__device__ int f4(int);
__device__ int f5(int);

__global__ void k2(int *o) { o[threadIdx.x] = f0(1) + f4(1); }

__global__ void k0(int *o)
{
    __shared__ __align__(16) int k0v0[32];
    __shared__ __align__(4) int k0v1[32];
    k0v0[threadIdx.x % 32] = 0; k0v1[threadIdx.x % 32] = 1;
    __syncthreads();
    o[threadIdx.x] = k0v0[(threadIdx.x + 1) % 32] + k0v1[(threadIdx.x + 2) % 32] + f5(1);
}

__global__ void k1(int *o)
{
    __shared__ __align__(16) int k1v0[64];
    __shared__ __align__(8) int k1v1[32];
    k1v0[threadIdx.x % 64] = 0; k1v1[threadIdx.x % 32] = 1;
    __syncthreads();
    o[threadIdx.x] = k1v0[(threadIdx.x + 1) % 64] + k1v1[(threadIdx.x + 2) % 32] + f0(1) + f3(1);
}
