#include "ws.h"

// a second kernel using the same roles with one producer warp group of its own barrier
// ids (the roles' ids), plain __syncthreads between passes, and no register reconfiguration
__global__ void __launch_bounds__(kThreads) ws_two_pass(const float* src, float* out, int tiles) {
  extern __shared__ __align__(16) float dyn[];
  Ring r{dyn, tiles};
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int pass = 0; pass < 2; ++pass) {
    if (warp < kProducerWarps) produce(r, src + pass * tiles * kTile, warp, lane);
    else {
      float v = consume(r, warp - kProducerWarps, lane, pass ? 2.f : 1.f);
      if (lane == 0) out[blockIdx.x * 8 + warp] = v;
    }
    __syncthreads();
  }
}
