#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Thread block clusters: compile-time cluster dims and distributed shared memory.
__global__ void __cluster_dims__(2, 1, 1) cluster_kernel(int *out)
{
    __shared__ int smem[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    smem[threadIdx.x & 63] = rank;
    cluster.sync();
    int *peer = cluster.map_shared_rank(smem, rank ^ 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x & 63];
    cluster.sync();
}
__global__ void __cluster_dims__(4, 2, 1) cluster_kernel_4x2(int *out) { out[0] = cg::this_cluster().num_blocks(); }
__global__ void plain_kernel(int *out) { out[0] = 1; }
