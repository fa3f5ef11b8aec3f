// Cluster helpers: distributed shared memory through cooperative_groups, and cuda::ptx
// wrappers (elect_sync, mbarrier init/arrive/try_wait) in device functions for other TUs.
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cstdint>
namespace cg = cooperative_groups;

__device__ int neighbour_sum(int *smem, int v) {
  cg::cluster_group c = cg::this_cluster();
  unsigned r = c.block_rank();
  smem[threadIdx.x] = v;
  c.sync();
  int *peer = c.map_shared_rank(smem, (r + 1) % c.num_blocks());
  int s = peer[threadIdx.x] + v;
  c.sync();
  return s;
}

__device__ bool leader() { return cuda::ptx::elect_sync(0xffffffffu); }

__device__ void bar_init(uint64_t *bar, unsigned n) {
  cuda::ptx::mbarrier_init(bar, n);
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

__device__ void bar_arrive_wait(uint64_t *bar) {
  uint64_t st = cuda::ptx::mbarrier_arrive(bar);
  while (!cuda::ptx::mbarrier_try_wait(bar, st)) {
  }
}
