// Two kernels: one with 0x8004 own bytes calling a 16 KiB function of big.cu, one with 0xc004.
__device__ float helper(const float *g, int i);
__global__ void zeta(const float *g, float *o) {
  __shared__ float own3[8193];
  own3[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  o[0] = own3[threadIdx.x ^ 3] + helper(g, 0);
}
__global__ void alpha(const float *g, float *o) {
  __shared__ float own4[12289];
  own4[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  o[0] = own4[threadIdx.x ^ 3];
}
