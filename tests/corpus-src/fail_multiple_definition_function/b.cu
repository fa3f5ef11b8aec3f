__device__ __noinline__ int twice_defined(int x) { return x + 2; }
__global__ void kb(int *p) { p[0] = twice_defined(p[1]); }
