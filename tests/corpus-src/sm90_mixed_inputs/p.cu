__device__ __noinline__ int from_ptx(int x) { return x - 5; }
