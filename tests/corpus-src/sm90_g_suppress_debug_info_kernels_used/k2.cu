__device__ __noinline__ int twice(int v) { return v + v; }
__global__ void k_second_tu(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
__global__ void k_second_tu_b(int *p, int n) { p[n] = twice(n); }
