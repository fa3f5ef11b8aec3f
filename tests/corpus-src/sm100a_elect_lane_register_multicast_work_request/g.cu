#include <cstdint>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// elect.sync with the elected lane in a register.
__global__ void elect_lane(int *out) {
  unsigned lane; unsigned pred;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(lane), "=r"(pred));
  out[threadIdx.x] = lane * 2 + pred;
}
// clusterlaunchcontrol.try_cancel with .multicast::cluster::all (UGETNEXTWORKID.BROADCAST).
__global__ void multicast_cancel(int *out) {
  __shared__ alignas(16) uint4 resp;
  __shared__ alignas(8) uint64_t bar;
  uint32_t r = (uint32_t)__cvta_generic_to_shared(&resp), b = (uint32_t)__cvta_generic_to_shared(&bar);
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%0], [%1];" :: "r"(r), "r"(b) : "memory");
  out[threadIdx.x] = 1;
}
__global__ void elect_lane_fence(int *out, int *flag) {
  unsigned lane; unsigned pred;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(lane), "=r"(pred));
  out[threadIdx.x] = lane * 2 + pred;
  __threadfence();
  if (pred) flag[lane] = 1;
}
