extern __device__ int shared_counter;
__device__ __noinline__ int cb_mix(int a, int b) {
  int r = a;
  #pragma unroll 1
  for (int k = 0; k < (b & 7); ++k) r = __funnelshift_l(r, b, k) ^ atomicAdd(&shared_counter, k);
  return r;
}
__global__ void cb_kernel(int* p) { p[threadIdx.x] = cb_mix(p[threadIdx.x], threadIdx.x); }
