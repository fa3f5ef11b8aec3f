__device__ __noinline__ int f20() { __shared__ int s_f20[20]; s_f20[threadIdx.x % 20] = threadIdx.x; __syncthreads(); return s_f20[(threadIdx.x + 1) % 20]; }
__device__ __noinline__ int f2() { __shared__ int s_f2[2]; s_f2[threadIdx.x & 1] = threadIdx.x; __syncthreads(); return s_f2[(threadIdx.x + 1) & 1]; }
__global__ void k2(int* out) {
  __shared__ int s_own64[64];
  __shared__ int s_own6[6];
  __shared__ int s_own12[12];
  __shared__ short s_half[5];
  s_own64[threadIdx.x & 63] = threadIdx.x; s_own6[threadIdx.x % 6] = 1; s_own12[threadIdx.x % 12] = 2; s_half[threadIdx.x % 5] = 3;
  __syncthreads();
  out[0] = f20() + f2() + s_own64[threadIdx.x ^ 1] + s_own6[threadIdx.x % 5] + s_own12[0] + s_half[1];
}
