// Cluster kernels calling the helpers of dsmem.cu: compile-time cluster dims, and a third
// __launch_bounds__ argument (maxBlocksPerCluster).
#include <cstdint>
__device__ int neighbour_sum(int *smem, int v);
__device__ bool leader();
__device__ void bar_init(uint64_t *bar, unsigned n);
__device__ void bar_arrive_wait(uint64_t *bar);

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 1) ring(int *out) {
  __shared__ int smem[128];
  out[blockIdx.x * 128 + threadIdx.x] = neighbour_sum(smem, threadIdx.x + blockIdx.x);
}

__global__ void __launch_bounds__(128, 1, 4) gather(int *out, int scale) {
  __shared__ int smem[128];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) bar_init(&bar, blockDim.x);
  __syncthreads();
  int s = neighbour_sum(smem, threadIdx.x * scale);
  bar_arrive_wait(&bar);
  if (leader()) atomicAdd(out, s);
}
