__global__ void k(float *o) {
  __shared__ float st[160];
  extern __shared__ float dyn[];
  st[threadIdx.x] = o[threadIdx.x]; dyn[threadIdx.x] = st[threadIdx.x ^ 1]; __syncthreads();
  o[threadIdx.x] = dyn[threadIdx.x ^ 3] + st[threadIdx.x];
}
#ifdef COMMON
__device__ __noinline__ float f(int i) { __shared__ float cs[8]; cs[i & 7] = i; __syncthreads(); return cs[(i + 1) & 7]; }
__global__ void k2(float *o) { o[0] = f(threadIdx.x); }
__global__ void k3(float *o) { o[1] = f(threadIdx.x + 1); }
#endif
