#pragma once
template <class T> inline __device__ T weights[8] = {T(1), T(2), T(3), T(5), T(8), T(13), T(21), T(34)};
template <class T> __device__ __noinline__ T poly(T x, int k) {
  T r = weights<T>[k & 7];
  for (int i = 0; i < k; ++i) r = r * x + weights<T>[i & 7];
  return r;
}
template <class T, int N> struct Ring {
  T buf[N];
  int head;
  __device__ __noinline__ void push(T v) { buf[head] = v; head = (head + 1) % N; }
  __device__ __noinline__ T sum() const { T s = T(0); for (int i = 0; i < N; ++i) s += buf[i] * poly(buf[i], i); return s; }
};
template <class T> __device__ __noinline__ T counted(T v) {
  static __device__ unsigned long long calls;
  atomicAdd(&calls, 1ull);
  return v + T(calls & 3);
}
inline __device__ float apply_all(float x) {
  auto f = [](auto v, int k) { return poly(v, k) + counted(v); };
  return f(x, 3) + (float)f((double)x, 5) + (float)f((int)x, 2);
}
template <class T> __global__ void fill_kernel(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Ring<T, 4> r{};
  if (i < n) { r.push(T(i)); r.push(out[i]); out[i] = r.sum() + poly(out[i], i & 7); }
}
