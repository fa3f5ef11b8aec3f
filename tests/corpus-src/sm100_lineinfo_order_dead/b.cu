__device__ __noinline__ int g1(int x) { return x * 3 + 1; }
__device__ __noinline__ int helper_dead(int x) { return x * x + 3; }
__global__ void kb(int *p) { p[0] = g1(p[1]); }
__device__ int from_b(int x) { return x * 3; }
