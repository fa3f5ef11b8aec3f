__device__ __noinline__ int f0(int t)
{
    __shared__ __align__(4) int f0v0[32];
    __shared__ __align__(4) int f0v1[64];
    __shared__ __align__(16) int f0v2[32];
    f0v0[threadIdx.x % 32] = 0; f0v1[threadIdx.x % 64] = 1; f0v2[threadIdx.x % 32] = 2;
    __syncthreads();
    return f0v0[(threadIdx.x + 1) % 32] + f0v1[(threadIdx.x + 2) % 64] + f0v2[(threadIdx.x + 3) % 32];
}

__device__ __noinline__ int f3(int t)
{
    __shared__ __align__(16) int f3v0[32];
    f3v0[threadIdx.x % 32] = 0;
    __syncthreads();
    return f3v0[(threadIdx.x + 1) % 32];
}

// Dead: no kernel calls it.
__device__ __noinline__ int f1(int t)
{
    __shared__ __align__(16) int f1v0[32];
    __shared__ __align__(4) int f1v1[96];
    f1v0[threadIdx.x % 32] = 0; f1v1[threadIdx.x % 96] = 1;
    __syncthreads();
    return f1v0[(threadIdx.x + 1) % 32] + f1v1[(threadIdx.x + 2) % 96];
}

__device__ __noinline__ int f5(int t)
{
    __shared__ __align__(4) int f5v0[32];
    __shared__ __align__(16) int f5v1[32];
    __shared__ __align__(8) int f5v2[64];
    __shared__ __align__(16) int f5v3[32];
    __shared__ __align__(16) int f5v4[64];
    f5v0[threadIdx.x % 32] = 0; f5v1[threadIdx.x % 32] = 1; f5v2[threadIdx.x % 64] = 2;
    f5v3[threadIdx.x % 32] = 3; f5v4[threadIdx.x % 64] = 4;
    __syncthreads();
    return f5v0[(threadIdx.x + 1) % 32] + f5v1[(threadIdx.x + 2) % 32] + f5v2[(threadIdx.x + 3) % 64]
         + f5v3[(threadIdx.x + 4) % 32] + f5v4[(threadIdx.x + 5) % 64];
}

__device__ __noinline__ int f4(int t)
{
    __shared__ __align__(16) int f4v0[32];
    f4v0[threadIdx.x % 32] = 0;
    __syncthreads();
    return f4v0[(threadIdx.x + 1) % 32];
}

__global__ void k3(int *o)
{
    __shared__ __align__(4) int k3v0[32];
    __shared__ __align__(16) int k3v1[64];
    k3v0[threadIdx.x % 32] = 0; k3v1[threadIdx.x % 64] = 1;
    __syncthreads();
    o[threadIdx.x] = k3v0[(threadIdx.x + 1) % 32] + k3v1[(threadIdx.x + 2) % 64] + f5(1);
}
