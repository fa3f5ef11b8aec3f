__device__ __noinline__ int extra_helper(int x) { return x * 9; }
__global__ void extra_kernel(int *p) { p[0] = extra_helper(p[1]); }
