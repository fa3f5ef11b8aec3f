__device__ __noinline__ int fc(int t)
{
    __shared__ int c0[32];
    c0[t & 31] = t;
    __syncthreads();
    return c0[(t + 1) & 31];
}

// No kernel calls fdead.
__device__ __noinline__ int fdead(int t)
{
    __shared__ __align__(32) int d0[32];
    d0[t & 31] = t;
    __syncthreads();
    return d0[(t + 1) & 31];
}
