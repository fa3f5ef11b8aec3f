// Ties between a kernel's own __shared__ variables and those of device functions only it
// calls, across two translation units. Before the per-kernel sort nvlink orders every
// function variable and extern __shared__ name of the link by size (same merge sort), dead
// functions included; a kernel's function variables enter its list in reverse of that order.
__device__ int fb(int);
__device__ int fdead(int);

__device__ __noinline__ int fa(int t)
{
    __shared__ int a0[32];
    __shared__ int a1[64];
    __shared__ int a2[32];
    extern __shared__ int dyn_a[];
    a0[t & 31] = 0; a1[t & 63] = 1; a2[t & 31] = 2;
    __syncthreads();
    return a0[(t + 1) & 31] + a1[(t + 2) & 63] + a2[(t + 3) & 31] + dyn_a[t];
}

__global__ void k1(int *o)
{
    __shared__ int k0[32];
    __shared__ int k1v[32];
    __shared__ int k2[64];
    k0[threadIdx.x & 31] = 0; k1v[threadIdx.x & 31] = 1; k2[threadIdx.x & 63] = 2;
    __syncthreads();
    o[threadIdx.x] = k0[(threadIdx.x + 1) & 31] + k1v[(threadIdx.x + 2) & 31] + k2[(threadIdx.x + 3) & 63]
                   + fa(threadIdx.x) + fb(threadIdx.x);
}
