__device__ __noinline__ int from_archive(int x) { return x ^ 6; }
