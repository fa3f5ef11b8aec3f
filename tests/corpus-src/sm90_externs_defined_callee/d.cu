__device__ __noinline__ int h(int x) { return x * 3; }
