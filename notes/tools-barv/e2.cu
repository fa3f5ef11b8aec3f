// The same stores without barriers between them.
__global__ void e2(const float4* __restrict__ src, float* out) {
  __shared__ float4 stage[4][64];
  float4 a = src[threadIdx.x], b = src[threadIdx.x + 64], c = src[threadIdx.x + 128], d = src[threadIdx.x + 192];
  stage[0][threadIdx.x] = a;
  stage[1][threadIdx.x] = b;
  stage[2][threadIdx.x] = c;
  stage[3][threadIdx.x] = d;
  asm volatile("bar.sync 10, 64;");
  float4 v = stage[threadIdx.x & 3][(threadIdx.x + 1) & 63];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
