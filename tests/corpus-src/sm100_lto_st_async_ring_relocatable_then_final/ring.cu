// Kernel sending four ints to the next CTA of its cluster and summing what it received.
#include <cuda/ptx>
#include <cuda/std/array>
#include <cuda/std/span>
#include <cooperative_groups.h>
#include <cstdint>
namespace cg = cooperative_groups;
__device__ void push4(int *peer_slot, uint64_t *peer_bar, const cuda::std::array<int, 4> &v);
__device__ void arm(uint64_t *bar, uint32_t bytes);
__device__ uint32_t my_rank();
__device__ uint32_t cluster_size();

__device__ int total(cuda::std::span<const int> s) {
  int t = 0;
  for (int x : s) t += x;
  return t;
}

__global__ void __cluster_dims__(2, 1, 1) ring(int *out) {
  __shared__ __align__(16) int slot[4];
  __shared__ uint64_t bar;
  auto c = cg::this_cluster();
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&bar, 1);
    arm(&bar, sizeof(slot));
  }
  c.sync();
  if (threadIdx.x == 0) {
    uint32_t next = (my_rank() + 1) % cluster_size();
    int *ps = c.map_shared_rank(slot, next);
    uint64_t *pb = c.map_shared_rank(&bar, next);
    cuda::std::array<int, 4> v{int(blockIdx.x), 1, 2, 3};
    push4(ps, pb, v);
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[blockIdx.x] = total(cuda::std::span<const int>(slot, 4));
  }
  c.sync();
}
