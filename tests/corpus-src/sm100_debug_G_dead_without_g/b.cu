__device__ __noinline__ int helper_dead(int x) { return x * x + 3; }
__device__ __noinline__ int helper_used(int x) { return x + 7; }
__device__ __noinline__ int helper_dead2(int x) { return x * 5 - 1; }
