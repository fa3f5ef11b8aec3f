__constant__ int fatbin_const = 4;
__device__ __noinline__ int from_fatbin(int x) { return x * fatbin_const; }
