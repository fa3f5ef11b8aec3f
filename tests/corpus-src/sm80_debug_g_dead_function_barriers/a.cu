#include <cuda/barrier>
__device__ __noinline__ void dead_f(float *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b1, b2;
  if (threadIdx.x == 0) { init(&b1, blockDim.x); init(&b2, blockDim.x); }
  __syncthreads();
  b1.arrive_and_wait(); o[0] = 1; b2.arrive_and_wait();
}
__global__ void ka(float *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b;
  if (threadIdx.x == 0) init(&b, blockDim.x);
  __syncthreads();
  b.arrive_and_wait(); o[1] = 2;
}
__global__ void kb(float *o) { o[2] = 3; }
__global__ void kc(float *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b1, b2, b3;
  if (threadIdx.x == 0) { init(&b1, blockDim.x); init(&b2, blockDim.x); init(&b3, blockDim.x); }
  __syncthreads();
  b1.arrive_and_wait(); b2.arrive_and_wait(); b3.arrive_and_wait(); o[3] = 4;
}
