__constant__ int c_factor = 5;
__device__ __noinline__ int part_c(int x) { return x * c_factor; }
