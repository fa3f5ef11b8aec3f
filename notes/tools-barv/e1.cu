// Straight-line: four 16-byte loads stored to shared memory, a named barrier between stores, no loop after.
__global__ void e1(const float4* __restrict__ src, float* out) {
  __shared__ float4 stage[4][64];
  float4 a = src[threadIdx.x], b = src[threadIdx.x + 64], c = src[threadIdx.x + 128], d = src[threadIdx.x + 192];
  stage[0][threadIdx.x] = a;
  asm volatile("bar.sync 10, 64;");
  stage[1][threadIdx.x] = b;
  asm volatile("bar.sync 10, 64;");
  stage[2][threadIdx.x] = c;
  asm volatile("bar.sync 10, 64;");
  stage[3][threadIdx.x] = d;
  asm volatile("bar.sync 10, 64;");
  float4 v = stage[threadIdx.x & 3][(threadIdx.x + 1) & 63];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
