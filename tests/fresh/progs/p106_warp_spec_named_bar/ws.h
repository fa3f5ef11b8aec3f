#pragma once
#include <cstdint>

// Warp-specialised pipeline: producer warps fill a ring of shared-memory stages, consumer
// warps reduce them. Stage hand-off uses named barriers (bar.sync / bar.arrive with a thread
// count) instead of __syncthreads.
constexpr int kStages = 3;
constexpr int kTile = 256;           // floats per stage
constexpr int kProducerWarps = 2;
constexpr int kConsumerWarps = 4;
constexpr int kThreads = 32 * (kProducerWarps + kConsumerWarps);
// barrier ids: 0 is __syncthreads; FULL(s) = 1 + s, EMPTY(s) = 1 + kStages + s
__device__ __forceinline__ int full_id(int s) { return 1 + s; }
__device__ __forceinline__ int empty_id(int s) { return 1 + kStages + s; }

struct Ring {
  float* data;       // kStages * kTile floats in shared memory
  int tiles;         // number of tiles to stream
};

__device__ void named_sync(int id, int count);
__device__ void named_arrive(int id, int count);
__device__ void produce(const Ring& r, const float* __restrict__ src, int warp, int lane);
__device__ float consume(const Ring& r, int warp, int lane, float scale);
__device__ float warp_sum(float v);
extern __device__ unsigned long long g_tiles_done;
extern __constant__ float c_weights[kTile];
