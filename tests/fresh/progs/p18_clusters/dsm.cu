#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int neighbour_sum(int* smem, cg::cluster_group& c);
__global__ void __cluster_dims__(2, 1, 1) histo_cluster(const int* in, int* out, int n) {
  __shared__ int bins[256];
  cg::cluster_group cluster = cg::this_cluster();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = in[i] & 255;
    int* dst = cluster.map_shared_rank(bins, b & 1);
    atomicAdd(dst, 1);
  }
  cluster.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = neighbour_sum(bins, cluster);
}
