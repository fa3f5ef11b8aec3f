#include "vec.cuh"
__global__ void step(V3* pos, V3* vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  V3 f = {0, 0, 0};
  for (int j = 0; j < n; ++j) if (j != i) f = f + force(pos[i], pos[j]);
  vel[i] = vel[i] + dt * f;
  pos[i] = pos[i] + dt * vel[i];
}
