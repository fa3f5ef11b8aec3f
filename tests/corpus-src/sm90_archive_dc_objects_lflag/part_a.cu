extern __device__ int part_c(int);
__device__ __noinline__ int part_a(int x) { return part_c(x) * 2; }
