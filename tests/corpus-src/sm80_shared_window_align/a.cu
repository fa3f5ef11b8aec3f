__device__ __noinline__ int fb(int t)
{
    __shared__ __align__(16) int b0[32];
    b0[t & 31] = t;
    __syncthreads();
    return b0[(t + 1) & 31];
}

__global__ void kA(int *o)
{
    __shared__ int a0[32];
    a0[threadIdx.x & 31] = 1;
    __syncthreads();
    o[threadIdx.x] = a0[(threadIdx.x + 1) & 31];
}

__global__ void kB(int *o) { o[threadIdx.x] = fb(threadIdx.x); }
