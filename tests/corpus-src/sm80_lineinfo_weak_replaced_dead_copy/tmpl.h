// A weak template function reading an inline variable template (code relocations).
template <class T> inline __device__ T weights[8] = {T(1), T(2), T(3), T(5), T(8), T(13), T(21), T(34)};
template <class T> __device__ __noinline__ T poly(T x, int k) {
  T r = weights<T>[k & 7];
  for (int i = 0; i < k; ++i) r = r * x + weights<T>[i & 7];
  return r;
}
