__device__ __noinline__ int twice_defined(int x) { return x + 1; }
__global__ void ka(int *p) { p[0] = twice_defined(p[0]); }
