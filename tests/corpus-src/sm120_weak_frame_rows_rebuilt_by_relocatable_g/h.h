#pragma once
template <typename T> __device__ __noinline__ T heavy(const T* p, int n) {
  T acc[8] = {};
  for (int i = 0; i < n; ++i) {
    #pragma unroll
    for (int k = 0; k < 8; ++k) acc[k] = acc[k] * (T)3 + p[(i + k) % n] / (T)(k + 1);
  }
  T s = 0;
  #pragma unroll
  for (int k = 0; k < 8; ++k) s += acc[k] * acc[7 - k];
  return s;
}
