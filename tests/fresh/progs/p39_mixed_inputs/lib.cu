__device__ int from_lib(int x) { return x - 1; }
