#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
// Cooperative groups: grid-wide sync, tiled partitions, reductions.
__global__ void grid_sum(const int *in, int *partial, int *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = grid.thread_rank() < (unsigned)n ? in[grid.thread_rank()] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], s);
    grid.sync();
    if (grid.thread_rank() == 0) {
        int t = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
        *out = t;
    }
}
__global__ void coalesced(int *p)
{
    if (threadIdx.x & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        p[threadIdx.x] = active.size() + active.shfl(p[threadIdx.x], 0);
    }
}
