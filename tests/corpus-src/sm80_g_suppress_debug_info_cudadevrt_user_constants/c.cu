__constant__ int carr[3] = {7, 8, 9};
__device__ __noinline__ int fc1(int x) { return x * carr[x & 1]; }
