__device__ int ext_fn(int x) { return x + 1; }
