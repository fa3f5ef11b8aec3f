__device__ int m3_fn(int);
__device__ int m2_fn(int x) { return m3_fn(x) * 2; }
__device__ int m2_data = 42;
