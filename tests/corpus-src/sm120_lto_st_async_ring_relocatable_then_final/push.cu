// Pushing values into a peer CTA's shared memory with st.async (cuda::ptx), completing the peer's
// mbarrier transaction count; cluster special registers read through cuda::ptx::get_sreg_*.
#include <cuda/ptx>
#include <cuda/std/array>
#include <cstdint>
namespace ptx = cuda::ptx;

__device__ uint32_t peer_addr(const void *p, uint32_t rank) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(p), r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}

__device__ void push4(int *peer_slot, uint64_t *peer_bar, const cuda::std::array<int, 4> &v) {
  int32_t vals[4] = {v[0], v[1], v[2], v[3]};
  ptx::st_async(peer_slot, vals, peer_bar);
}

__device__ void arm(uint64_t *bar, uint32_t bytes) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar, bytes);
}

__device__ uint32_t my_rank() { return ptx::get_sreg_cluster_ctarank(); }
__device__ uint32_t cluster_size() { return ptx::get_sreg_cluster_nctarank(); }
