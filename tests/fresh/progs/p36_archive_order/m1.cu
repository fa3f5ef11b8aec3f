__device__ int m2_fn(int);
__device__ int m1_fn(int x) { return m2_fn(x) + 1; }
