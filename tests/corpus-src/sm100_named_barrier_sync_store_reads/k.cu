// Producer warps stage float4 tiles in shared memory, consumer warps read them; the hand-off
// is by named barriers, bar.sync only (the arrive of sm100_named_barrier_arrive_rescored made a sync).
__global__ void __launch_bounds__(192, 1) ws_local(const float4* __restrict__ src, float* out, int n) {
  __shared__ float4 stage[2][64];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc = 0.f;
  if (warp < 2) {
    for (int t = 0; t < n; ++t) {
      if (t >= 2) asm volatile("bar.sync 9, 192;");
      stage[t & 1][threadIdx.x] = src[t * 64 + threadIdx.x];
      asm volatile("bar.sync 8, 192;");
      asm volatile("bar.sync 10, 64;");
    }
  } else {
    for (int t = 0; t < n; ++t) {
      asm volatile("bar.sync 8, 192;");
      float4 v = stage[t & 1][(threadIdx.x - 64) & 63];
      acc += v.x * v.y + v.z * v.w;
      if (t + 2 < n) asm volatile("bar.sync 9, 192;");
    }
    acc = __reduce_add_sync(0xffffffffu, (unsigned)acc);
    if (lane == 0) out[blockIdx.x * 4 + warp - 2] = acc;
  }
}
