__device__ int good_data = 1;
__device__ __noinline__ int good_helper(int x) { return x + good_data; }
__global__ void good_kernel(int *p) { p[0] = good_helper(p[1]); }
