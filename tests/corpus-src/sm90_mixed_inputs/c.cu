__device__ int cubin_data = 3;
__device__ __noinline__ int from_cubin(int x) { return x + cubin_data; }
