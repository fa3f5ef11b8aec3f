#include "vec.cuh"
#include <cstdio>
__device__ V3 force(V3 a, V3 b) {
  float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  float d2 = dx * dx + dy * dy + dz * dz + 1e-3f;
  float inv = rsqrtf(d2); inv = inv * inv * inv;
  return {dx * inv, dy * inv, dz * inv};
}
__global__ void energy(const V3* vel, float* e, int n) {
  float s = 0; for (int i = 0; i < n; ++i) s += vel[i].x * vel[i].x;
  *e = s; if (s > 1e6f) printf("energy blowup %f\n", s);
}
