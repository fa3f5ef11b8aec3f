// A kernel pushing four values into the next CTA of its cluster with st.async (push.cu's
// helpers, inlined by LTO): a device-scope fence after it (its placeholders), no mbarrier operation
// and no cluster barrier in the kernel itself.
#include <cuda/std/array>
#include <cstdint>
__device__ uint32_t peer_addr(const void *p, uint32_t rank);
__device__ void push4(int *peer_slot, uint64_t *peer_bar, const cuda::std::array<int, 4> &v);
__device__ uint32_t my_rank();
__device__ uint32_t cluster_size();
__global__ void __cluster_dims__(2, 1, 1) only_push(const int *in, uint64_t bar_addr, int *in_flag) {
  __shared__ alignas(16) int slot[4];
  uint32_t peer = (my_rank() + 1) % cluster_size();
  cuda::std::array<int, 4> v = {in[0], in[1], in[2], in[threadIdx.x]};
  int *ps = (int *)(uintptr_t)peer_addr(slot, peer);
  push4(ps, (uint64_t *)bar_addr, v);
  __threadfence();
  if (threadIdx.x == 0) in_flag[blockIdx.x] = 1;
}
