#include "ws.h"

__device__ unsigned long long g_tiles_done;
__constant__ float c_weights[kTile] = {1.0f, 0.5f, 0.25f, 0.125f};

__device__ void named_sync(int id, int count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
__device__ void named_arrive(int id, int count) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__device__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// producers: wait until the stage is empty, copy a tile, signal full (arrive: do not wait
// for the consumers)
__device__ void produce(const Ring& r, const float* __restrict__ src, int warp, int lane) {
  const int pt = 32 * kProducerWarps;
  for (int t = 0; t < r.tiles; ++t) {
    int s = t % kStages;
    if (t >= kStages) named_sync(empty_id(s), kThreads);
    float* dst = r.data + s * kTile;
    for (int i = warp * 32 + lane; i < kTile; i += pt)
      dst[i] = __ldg(src + t * kTile + i) * c_weights[i];
    __threadfence_block();
    named_arrive(full_id(s), kThreads);
  }
}

__device__ float consume(const Ring& r, int warp, int lane, float scale) {
  const int ct = 32 * kConsumerWarps;
  float acc = 0.f;
  for (int t = 0; t < r.tiles; ++t) {
    int s = t % kStages;
    named_sync(full_id(s), kThreads);
    const float* src = r.data + s * kTile;
    for (int i = warp * 32 + lane; i < kTile; i += ct) acc = fmaf(src[i], scale, acc);
    if (t + kStages < r.tiles) named_arrive(empty_id(s), kThreads);
    if (warp == 0 && lane == 0) atomicAdd(&g_tiles_done, 1ull);
  }
  return warp_sum(acc);
}
