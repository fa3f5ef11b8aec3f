// Five __shared__ arrays of equal alignment and size in one kernel (nvlink: 0, 4, 2, 3, 1).
__global__ void k(int *o)
{
    __shared__ int a0[32];
    __shared__ int a1[32];
    __shared__ int a2[32];
    __shared__ int a3[32];
    __shared__ int a4[32];
    a0[threadIdx.x & 31] = 0;
    a1[threadIdx.x & 31] = 1;
    a2[threadIdx.x & 31] = 2;
    a3[threadIdx.x & 31] = 3;
    a4[threadIdx.x & 31] = 4;
    __syncthreads();
    o[threadIdx.x] = a0[(threadIdx.x + 1) & 31] + a1[(threadIdx.x + 2) & 31] + a2[(threadIdx.x + 3) & 31]
                   + a3[(threadIdx.x + 4) & 31] + a4[(threadIdx.x + 5) & 31];
}
