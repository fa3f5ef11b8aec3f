__device__ float util_clamp(float v) { return v < 0.f ? 0.f : v > 1.f ? 1.f : v; }
__device__ int util_counter;
__device__ void util_tick() { atomicAdd(&util_counter, 1); }
