// No kernel calls fdead.
__device__ __noinline__ int fdead(int t)
{
    __shared__ int d0[16];
    __shared__ int d1[32];
    d0[t & 15] = 0; d1[t & 31] = 1;
    __syncthreads();
    return d0[(t + 1) & 15] + d1[(t + 2) & 31];
}

__global__ void k2(int *o)
{
    __shared__ int m0[32];
    __shared__ int m1[32];
    m0[threadIdx.x & 31] = 0; m1[threadIdx.x & 31] = 1;
    __syncthreads();
    o[threadIdx.x] = m0[(threadIdx.x + 1) & 31] + m1[(threadIdx.x + 2) & 31];
}

__global__ void k3(int *o) { o[threadIdx.x] = threadIdx.x; }
