__device__ __noinline__ int scale(int x) { return x * 3; }
__device__ __noinline__ int offset(int x) { return x + 11; }
// Never called from any kernel: removed by nvlink's dead-code elimination.
__device__ __noinline__ int dead_helper(int x) { return x ^ 0x5a5a; }
__device__ __noinline__ int dead_caller(int x) { return dead_helper(x) + 1; }
