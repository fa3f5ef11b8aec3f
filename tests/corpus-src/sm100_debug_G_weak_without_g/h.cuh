template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
