// Three __shared__ arrays of equal alignment and size in one kernel: nvlink's unstable list
// merge sort places them 2, 0, 1 (symbol order), not in declaration order.
__global__ void k(int *o)
{
    __shared__ int a0[32];
    __shared__ int a1[32];
    __shared__ int a2[32];
    a0[threadIdx.x & 31] = 0;
    a1[threadIdx.x & 31] = 1;
    a2[threadIdx.x & 31] = 2;
    __syncthreads();
    o[threadIdx.x] = a0[(threadIdx.x + 1) & 31] + a1[(threadIdx.x + 2) & 31] + a2[(threadIdx.x + 3) & 31];
}
