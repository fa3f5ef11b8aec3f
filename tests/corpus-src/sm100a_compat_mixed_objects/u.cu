__device__ int u_fn(int x) { return x * 3; }
