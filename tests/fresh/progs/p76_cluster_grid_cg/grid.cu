// Grid-wide synchronisation (cooperative launch), tiled partitions with cg::reduce, device-side
// printf / assert / __trap / __nanosleep, and the managed and __constant__ variables cluster.cu uses.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cassert>
#include <cstdio>
namespace cg = cooperative_groups;

__managed__ int iterations = 3;
__constant__ float weights[8] = {1, 0.5f, 0.25f, 0.125f, 2, 4, 8, 16};
__device__ unsigned arrivals;

__device__ float neighbour_sum(float v) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  return cg::reduce(w, v, cg::plus<float>()) / 32.f + v;
}

__global__ void jacobi(float* a, float* b, int n, int steps) {
  cg::grid_group g = cg::this_grid();
  assert(g.is_valid());
  for (int s = 0; s < steps; ++s) {
    for (int i = g.thread_rank() + 1; i < n - 1; i += g.size()) b[i] = 0.5f * (a[i - 1] + a[i + 1]) * weights[s & 7];
    g.sync();
    float* t = a; a = b; b = t;
  }
  if (g.thread_rank() == 0) printf("jacobi: %d steps, %llu threads\n", steps, (unsigned long long)g.size());
}

__global__ void spin_barrier(int* data, int expected) {
  if (threadIdx.x == 0) {
    atomicAdd(&arrivals, 1);
    unsigned ns = 8;
    while (atomicAdd(&arrivals, 0) < gridDim.x) { __nanosleep(ns); if (ns < 256) ns *= 2; }
  }
  __syncthreads();
  int v = data[blockIdx.x];
  if (v != expected) { printf("block %d: bad value %d\n", blockIdx.x, v); __trap(); }
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
  int m = cg::reduce(t8, v + (int)t8.thread_rank(), cg::greater<int>());
  if (t8.thread_rank() == 0) data[blockIdx.x] = m;
}

void run_jacobi(float* a, float* b, int n, int steps) {
  void* args[] = {&a, &b, &n, &steps};
  cudaLaunchCooperativeKernel((void*)jacobi, 32, 256, args);
}
