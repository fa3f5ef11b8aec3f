__device__ __noinline__ float leaf(const float* p, int n) {
  float a[12] = {};
  for (int i = 0; i < n; ++i) {
    #pragma unroll
    for (int k = 0; k < 12; ++k) a[k] = a[k] * 3.f + p[(i + k) % n];
  }
  float s = 0;
  #pragma unroll
  for (int k = 0; k < 12; ++k) s += a[k] * a[11 - k];
  return s;
}
