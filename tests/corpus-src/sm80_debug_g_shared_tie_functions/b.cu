// The second translation unit: a live function, a dead one, and another kernel (which also
// uses dynamic shared memory).
__device__ __noinline__ int fdead(int t)
{
    __shared__ int d0[16];
    __shared__ int d1[32];
    d0[t & 15] = 0; d1[t & 31] = 1;
    __syncthreads();
    return d0[(t + 1) & 15] + d1[(t + 2) & 31];
}

__device__ __noinline__ int fb(int t)
{
    __shared__ int b0[32];
    __shared__ int b1[32];
    __shared__ int b2[64];
    __shared__ int b3[32];
    extern __shared__ int dyn_b[];
    b0[t & 31] = 0; b1[t & 31] = 1; b2[t & 63] = 2; b3[t & 31] = 3;
    __syncthreads();
    return b0[(t + 1) & 31] + b1[(t + 2) & 31] + b2[(t + 3) & 63] + b3[(t + 4) & 31] + dyn_b[t];
}

__device__ __noinline__ int fc(int t)
{
    __shared__ int c0[32];
    __shared__ int c1[32];
    c0[t & 31] = 0; c1[t & 31] = 1;
    __syncthreads();
    return c0[(t + 1) & 31] + c1[(t + 2) & 31];
}

__global__ void k2(int *o)
{
    __shared__ int m0[32];
    __shared__ int m1[32];
    extern __shared__ int dyn_k[];
    m0[threadIdx.x & 31] = 0; m1[threadIdx.x & 31] = 1;
    __syncthreads();
    o[threadIdx.x] = m0[(threadIdx.x + 1) & 31] + m1[(threadIdx.x + 2) & 31] + fc(threadIdx.x) + dyn_k[threadIdx.x];
}
