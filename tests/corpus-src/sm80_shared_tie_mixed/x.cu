// Mixed alignments and sizes with ties inside each (alignment, size) group: the merge sort's
// tie order depends on where the other keys sit in the list.
__global__ void k(int *o)
{
    __shared__ __align__(4) int v0[64];
    __shared__ __align__(16) int v1[32];
    __shared__ __align__(4) int v2[32];
    __shared__ __align__(8) int v3[32];
    __shared__ __align__(4) int v4[32];
    __shared__ __align__(16) int v5[32];
    __shared__ __align__(4) int v6[64];
    __shared__ __align__(8) int v7[32];
    __shared__ __align__(4) int v8[32];
    __shared__ __align__(16) int v9[32];
    __shared__ __align__(4) int v10[64];
    v0[threadIdx.x % 64] = 0; v1[threadIdx.x % 32] = 1; v2[threadIdx.x % 32] = 2;
    v3[threadIdx.x % 32] = 3; v4[threadIdx.x % 32] = 4; v5[threadIdx.x % 32] = 5;
    v6[threadIdx.x % 64] = 6; v7[threadIdx.x % 32] = 7; v8[threadIdx.x % 32] = 8;
    v9[threadIdx.x % 32] = 9; v10[threadIdx.x % 64] = 10;
    __syncthreads();
    o[threadIdx.x] = v0[(threadIdx.x + 1) % 64] + v1[(threadIdx.x + 2) % 32] + v2[(threadIdx.x + 3) % 32]
                   + v3[(threadIdx.x + 4) % 32] + v4[(threadIdx.x + 5) % 32] + v5[(threadIdx.x + 6) % 32]
                   + v6[(threadIdx.x + 7) % 64] + v7[(threadIdx.x + 8) % 32] + v8[(threadIdx.x + 9) % 32]
                   + v9[(threadIdx.x + 10) % 32] + v10[(threadIdx.x + 11) % 64];
}
