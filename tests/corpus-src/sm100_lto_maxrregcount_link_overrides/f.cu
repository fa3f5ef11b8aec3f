// A device function with some register pressure (a small unrolled polynomial table).
__device__ float f(const float *c, float x) {
  float a[16];
#pragma unroll
  for (int i = 0; i < 16; i++) a[i] = c[i] * x + c[15 - i];
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < 16; i++) s = s * x + a[i] * a[(i * 7) % 16];
  return s;
}
