// Thread block clusters through cooperative groups: distributed shared memory (map_shared_rank),
// cluster.sync, a compile-time cluster shape and a runtime one with dynamic shared memory;
// reads a managed variable and a __constant__ table defined in grid.cu.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

extern __managed__ int iterations;
extern __constant__ float weights[8];
__device__ float neighbour_sum(float v);  // grid.cu

__global__ void __cluster_dims__(2, 1, 1) halo(const float* in, float* out) {
  __shared__ float tile[256];
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x] * weights[r & 7];
  cl.sync();
  float* other = cl.map_shared_rank(tile, r ^ 1);
  float v = tile[threadIdx.x] + other[255 - threadIdx.x];
  cl.sync();
  out[blockIdx.x * 256 + threadIdx.x] = neighbour_sum(v);
}

__global__ void cluster_hist(const int* keys, int n, int* bins) {
  extern __shared__ int smem[];  // per-block slice of the cluster's histogram
  cg::cluster_group cl = cg::this_cluster();
  int nb = cl.num_blocks();
  for (int i = threadIdx.x; i < 64; i += blockDim.x) smem[i] = 0;
  cl.sync();
  for (int it = 0; it < iterations; ++it)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
      int k = keys[i] & 63;
      int* dst = cl.map_shared_rank(smem, k % nb);
      atomicAdd(dst + k, 1);
    }
  cl.sync();
  if (cl.block_rank() == 0)
    for (int i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&bins[i], smem[i]);
  if (threadIdx.x == 0 && cl.block_rank() == 0) printf("cluster %u of %u: %d blocks\n", blockIdx.x / nb, gridDim.x / nb, nb);
}

void launch_hist(const int* keys, int n, int* bins, cudaStream_t s) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = 16; cfg.blockDim = 128; cfg.dynamicSmemBytes = 64 * sizeof(int); cfg.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 4; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at; cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, cluster_hist, keys, n, bins);
}
