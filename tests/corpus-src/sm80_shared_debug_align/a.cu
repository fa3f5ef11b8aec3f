__device__ __noinline__ int fa(int t)
{
    __shared__ int a0[32];
    extern __shared__ int dyn_a[];
    a0[t & 31] = t;
    __syncthreads();
    return a0[(t + 1) & 31] + dyn_a[t];
}

__global__ void k1(int *o)
{
    __shared__ int k1v[32];
    k1v[threadIdx.x & 31] = 1;
    __syncthreads();
    o[threadIdx.x] = k1v[(threadIdx.x + 2) & 31] + fa(threadIdx.x);
}
