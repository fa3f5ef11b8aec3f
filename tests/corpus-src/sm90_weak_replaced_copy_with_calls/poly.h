// A weak template function; the first TU's copy calls a weak helper, the second's does not.
template <class T> __device__ __noinline__ T helper(T x) { return x * x + T(3); }
template <class T> __device__ __noinline__ T poly(T x, int k) {
  T r = T(1), s = T(2), t = T(3), u = T(4);
  for (int i = 0; i < k; ++i) { r = r * x + T(i); s = s * r + x; t = t * s + r; u = u * t - s; }
#ifdef CALL
  return r + s * t + u + helper(u);
#else
  return r + s * t + u;
#endif
}
